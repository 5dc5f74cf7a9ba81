/**
 * The listeners that take work stop accepting it at the signal, not at their turn in the stop
 * order: `steward start` with the ingest API, the REST API and UDP user events written to an
 * InfluxDB 1.x that is frozen (SIGSTOP) before SIGTERM, so the agent's writer takes until its
 * 5 s deadline to stop, and the listeners, which stop after it, would answer meanwhile. Right
 * after the signal a new request is refused at the door; a request in flight at the signal still
 * gets its answer, with `Connection: close`; the process exits 0 within 10 s.
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { type IncomingMessage, request } from "node:http";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { until } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { eventWithId, expectNoCrash, logLines, postEvent } from "../../helpers/ingest-client.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { sendDatagrams } from "../../helpers/send-datagrams.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import { influxdForSuite } from "../../helpers/suite-influxd.ts";

const { skip, influxd } = influxdForSuite();

const EXIT_WITHIN_MS = 10_000;
const DATABASE = "listeners_at_signal";

function config(ports: { ingest: number; rest: number; user: number }): string {
  return `Service:
  auditEvents:
    host: 127.0.0.1
    port: ${ports.ingest}
    destination:
      enable: true
      type: json
      json:
        objectdata:
          enable: true
          exportDirectory: ./out/json
  restServer:
    enable: true
    host: 127.0.0.1
    port: ${ports.rest}
  timeseriesdbConfig:
    enable: true
    version: 1
    host: 127.0.0.1
    port: ${influxd.port}
    v1Config:
      dbName: ${DATABASE}
  userEvents:
    enable: true
    udpServerConfig:
      serverHost: 127.0.0.1
      portUserActivityEvents: ${ports.user}
    sendToTimeseriesdb:
      enable: true
`;
}

const userEvent = (n: number) =>
  `/qseow-proxy-session/;host2;Start session;LAB;user${n};https://host2;/hub;UserAgent: Chrome/91.0`;

/**
 * A POST whose headers and first bytes are sent now and the rest of its body when `finish` is
 * called: a request in flight for as long as the test wants.
 */
function postInTwoParts(url: string): { finish(): Promise<IncomingMessage & { text: string }> } {
  const body = Buffer.from(JSON.stringify(eventWithId(randomUUID())));
  const req = request(url, {
    method: "POST",
    agent: false,
    headers: {
      "content-type": "application/json",
      "content-length": String(body.length),
      "x-audit-client-version": "0.3.0",
    },
  });
  const answered = new Promise<IncomingMessage & { text: string }>((resolve, reject) => {
    req.once("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.once("end", () => resolve(Object.assign(response, { text })));
    });
    req.once("error", reject);
  });
  req.write(body.subarray(0, 10));
  return {
    finish() {
      req.end(body.subarray(10));
      return answered;
    },
  };
}

describe.skipIf(skip)("SIGTERM while the agent takes seconds to stop", () => {
  it("refuses new requests at the signal, answers the one in flight, and exits 0 within 10 s", async () => {
    // Prepare: user events reach InfluxDB, which then freezes with more of them to write
    const dir = scratchDirectory("steward-listeners-at-signal-");
    const ports = { ingest: await freePort(), rest: await freePort(), user: await freePort() };
    writeFileSync(join(dir, "steward.yaml"), config(ports));
    const steward = await startStewardIn(dir);
    let sequence = 0;
    await until(
      async () => {
        sequence += 1;
        await sendDatagrams(ports.user, [userEvent(sequence)]);
        const answer = await influxd.query(`SELECT count(*) FROM "user_events"`, DATABASE);
        return answer.results[0]?.series !== undefined;
      },
      20_000,
      100,
    );
    const pid = influxd.pid() as number;
    process.kill(pid, "SIGSTOP");
    onTestFinished(() => {
      process.kill(pid, "SIGCONT");
    });
    for (let i = 0; i < 20; i++) await sendDatagrams(ports.user, [userEvent(sequence + i + 1)]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const inFlight = postInTwoParts(`http://127.0.0.1:${ports.ingest}/api/v1/audit-event`);
    await new Promise((resolve) => setTimeout(resolve, 200));

    // Act
    steward.child.kill("SIGTERM");
    await steward.waitFor(/received SIGTERM/, 5000);
    const ingestAfter = await postEvent(
      `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`,
      eventWithId(randomUUID()),
    );
    const restAfter = await fetch(`http://127.0.0.1:${ports.rest}/v4/ping`).then(
      (response) => `HTTP ${response.status}`,
      (error: { cause?: { code?: string } }) => error.cause?.code ?? String(error),
    );
    const inFlightAnswer = await inFlight.finish();
    const exit = await steward.exited(20_000);
    process.kill(pid, "SIGCONT");

    // Assess
    const output = steward.output();
    console.log(`SIGTERM with the agent's InfluxDB frozen: exit ${exit.code} after ${exit.ms} ms`);
    // Refused at the door: ECONNRESET when the connection reached the port's backlog in the
    // instant between the signal's log line and the port closing, ECONNREFUSED after.
    const refused = ["ECONNREFUSED", "ECONNRESET"];
    expect(ingestAfter.status).not.toBe(202);
    expect(refused).toContain(ingestAfter.noAnswer);
    expect(refused).toContain(restAfter);
    expect(inFlightAnswer.statusCode).toBe(202);
    expect(inFlightAnswer.headers.connection).toBe("close");
    // The agent's writer did hold the stop until its deadline: the listeners stopped before it.
    expect(logLines(output, "error", /part=user_events destination=timeseriesdb/)).toHaveLength(1);
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(EXIT_WITHIN_MS);
    expectNoCrash(output);
  }, 90_000);
});
