/**
 * SIGTERM within 10 s while every time-series writer of the process writes to one InfluxDB 1.x
 * that stopped answering: `steward start` with the audit destination `timeseriesdb` (durable
 * queue) and its queue metrics, UDP user and log events to InfluxDB with both queues' metrics,
 * event counts and the uptime monitor's memory points, all into one real influxd; events flow,
 * influxd is frozen (SIGSTOP: every request in flight hangs, as to a server that stopped
 * answering), then Steward gets SIGTERM. It exits 0 within 10 s, the audit events it had not
 * written stay in its log, and each writer it gave up on says once what it did not write.
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { until } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { eventWithId, expectNoCrash, logLines, postEvent } from "../../helpers/ingest-client.ts";
import { engineLogEvent } from "../../helpers/log-event-datagrams.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { sendDatagrams } from "../../helpers/send-datagrams.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import { influxdForSuite } from "../../helpers/suite-influxd.ts";

const { skip, influxd } = influxdForSuite();

/** What the process may take from the signal to its exit. */
const EXIT_WITHIN_MS = 10_000;
const DATABASE = "frozen_agent";

/** Every measurement the process writes, each of which must have points before the freeze. */
const MEASUREMENTS = [
  "audit_event",
  "audit_events_queue",
  "user_events",
  "log_event",
  "event_count",
  "user_events_queue",
  "log_events_queue",
  "steward_memory_usage",
];

function config(ports: { ingest: number; user: number; log: number }): string {
  const queueMetrics = `      queueMetrics:
        timeseriesdb:
          enable: true
          writeFrequency: 500`;
  return `Service:
  restServer:
    enable: false
  auditEvents:
    port: ${ports.ingest}
    rateLimit:
      maxPerMinute: 10000000
    queue:
      queueMetrics:
        timeseriesdb:
          enable: true
          writeFrequency: 500
    destination:
      enable: true
      type: timeseriesdb
      timeseriesdb:
        writeFrequency: 500
  timeseriesdbConfig:
    enable: true
    version: 1
    host: 127.0.0.1
    port: ${influxd.port}
    v1Config:
      dbName: ${DATABASE}
  uptimeMonitor:
    enable: true
    frequency: every 1 second
  platformEvents:
    timeseriesdb:
      enable: true
      writeFrequency: 500
    eventCount:
      enable: true
  userEvents:
    enable: true
    udpServerConfig:
      serverHost: 127.0.0.1
      portUserActivityEvents: ${ports.user}
${queueMetrics}
    sendToTimeseriesdb:
      enable: true
  logEvents:
    udpServerConfig:
      serverHost: 127.0.0.1
      portLogEvents: ${ports.log}
${queueMetrics}
    source:
      engine:
        enable: true
    sendToTimeseriesdb:
      enable: true
`;
}

/** Points of `measurement` in the database, 0 while it has none. */
async function pointsOf(measurement: string): Promise<number> {
  const answer = await influxd.query(`SELECT count(*) FROM "${measurement}"`, DATABASE);
  const row = answer.results[0]?.series?.[0]?.values[0];
  return row === undefined ? 0 : Math.max(...(row.slice(1) as number[]));
}

const userEvent = (n: number) =>
  `/qseow-proxy-session/;host2;Start session;LAB;user${n};https://host2;/hub;UserAgent: Chrome/91.0`;

describe.skipIf(skip)("SIGTERM while every time-series writer's InfluxDB is frozen", () => {
  it("exits 0 within 10 s, each abandoned writer saying once what it did not write", async () => {
    // Prepare: Steward writing everything to one influxd, events flowing until the signal.
    const dir = scratchDirectory("steward-frozen-agent-");
    const ports = { ingest: await freePort(), user: await freePort(), log: await freePort() };
    writeFileSync(join(dir, "steward.yaml"), config(ports));
    const steward = await startStewardIn(dir);
    const ingestUrl = `http://127.0.0.1:${ports.ingest}/api/v1/audit-event`;
    let flowing = true;
    let sequence = 0;
    const flow = (async () => {
      while (flowing) {
        sequence += 1;
        await Promise.all([
          postEvent(ingestUrl, eventWithId(randomUUID())),
          sendDatagrams(ports.user, [userEvent(sequence)]),
          sendDatagrams(ports.log, [engineLogEvent(sequence)]),
        ]);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await until(async () => (await Promise.all(MEASUREMENTS.map(pointsOf))).every((n) => n > 0), 20_000, 200);
    const pid = influxd.pid() as number;

    // Act: freeze InfluxDB while events flow, let writes hang, then SIGTERM.
    process.kill(pid, "SIGSTOP");
    onTestFinished(() => {
      process.kill(pid, "SIGCONT");
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    steward.child.kill("SIGTERM");
    const exit = await steward.exited(20_000);
    flowing = false;
    await flow;
    process.kill(pid, "SIGCONT");

    // Assess
    const output = steward.output();
    console.log(`SIGTERM with every writer's InfluxDB frozen: exit ${exit.code} after ${exit.ms} ms`);
    expect(output).not.toMatch(/shutdown did not finish/);
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(EXIT_WITHIN_MS);
    const abandoned = logLines(output, "error", /before shutdown; (lost|what it had not written is lost)/);
    const writers = abandoned.map((line) =>
      (/ writer=(\S+)/.exec(line) ?? / part=(\S+) destination=(\S+)/.exec(line))?.slice(1).join("."),
    );
    expect(abandoned.length).toBeGreaterThan(0);
    expect(writers).not.toContain(undefined);
    expect(new Set(writers).size).toBe(writers.length);
    // Nothing else at ERROR but those lines: no flood of failed writes.
    expect(logLines(output, "error", /./)).toEqual(abandoned);
    const kept = logLines(output, "warn", /stays in the queue's log/);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toContain("destination=timeseriesdb");
    expectNoCrash(output);
  }, 90_000);
});
