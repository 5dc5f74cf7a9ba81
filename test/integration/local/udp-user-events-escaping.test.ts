/**
 * User events whose directory and id InfluxDB cannot take as they are, end to end: `steward start`
 * with user events into Debian's InfluxDB 1.x, six datagrams from loopback, one of them with
 * directory `LAB y=` and user id `x\` (a value ending in a backslash once merged the rest of its
 * request into one unparsable line), then SIGTERM. All six are stored, with the values
 * docs/configuration.md#what-influxdb-stores states, and nothing is refused.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../../helpers/free-port.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { sendDatagrams } from "../../helpers/send-datagrams.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import { influxdForSuite } from "../../helpers/suite-influxd.ts";

const { skip, influxd } = influxdForSuite();

const datagram = (directory: string, id: string) =>
  `/qseow-proxy-session/;host2;Start session;${directory};${id};https://host2;/hub;UserAgent: Chrome/91.0`;

describe.skipIf(skip)("user events with backslashes and separators, through `steward start`", () => {
  it("stores all six events in InfluxDB 1.x, the one with directory `LAB y=` and id `x\\` as stated", async () => {
    // Prepare
    const dir = scratchDirectory("steward-udp-escaping-");
    const port = await freePort();
    writeFileSync(
      join(dir, "steward.yaml"),
      `Service:
  restServer:
    enable: false
  auditEvents:
    enable: false
  timeseriesdbConfig:
    enable: true
    version: 1
    host: 127.0.0.1
    port: ${influxd.port}
    v1Config:
      dbName: udp_escaping
  userEvents:
    enable: true
    udpServerConfig:
      serverHost: 127.0.0.1
      portUserActivityEvents: ${port}
    sendToTimeseriesdb:
      enable: true
`,
    );
    const proc = await startStewardIn(dir);

    // Act
    await sendDatagrams(port, [
      datagram("LAB", "anna"),
      datagram("LAB", "bert"),
      datagram("LAB y=", "x\\"),
      datagram("LAB", "carl"),
      datagram("LAB", "dora"),
      datagram("LAB", "emil"),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    proc.child.kill("SIGTERM");
    const { code } = await proc.exited();

    // Assess
    expect(code).toBe(0);
    const answer = await influxd.query(
      'SELECT "userId"::field AS uid, "userFull"::field AS ufull FROM "user_events" GROUP BY "userId", "userDirectory", "userFull"',
      "udp_escaping",
    );
    const stored = (answer.results[0]?.series ?? []).flatMap((series) => {
      const { tags } = series as unknown as { tags: Record<string, string> };
      return series.values.map((row) => ({ ...tags, uid: row[1], ufull: row[2] }) as Record<string, unknown>);
    });
    expect(stored.map((row) => row.userId).sort()).toEqual(["anna", "bert", "carl", "dora", "emil", "x"]);
    expect(stored.find((row) => row.userId === "x")).toEqual({
      userId: "x",
      userDirectory: "LAB y=",
      userFull: "LAB y=\\x",
      uid: "x\\",
      ufull: "LAB y=\\x\\",
    });
    expect(proc.output()).not.toMatch(/refused/);
  });
});
