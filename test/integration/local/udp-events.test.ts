/**
 * Platform events over UDP end to end, as a user runs them: `steward start` with a config that
 * enables both listeners, InfluxDB 1.x (Debian's influxd), the broker (mosquitto) and the
 * observability platform (a capture server); datagrams sent with node:dgram from loopback
 * addresses; then SIGTERM. Every datagram that was accepted must be in InfluxDB, on the broker and
 * at the observability platform once the process has exited.
 */
import { createSocket } from "node:dgram";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CaptureServer, startCaptureServer } from "../../helpers/capture-server.ts";
import { freePort } from "../../helpers/free-port.ts";
import { type Influxd, skipWithoutInfluxd, startInfluxd } from "../../helpers/influxd.ts";
import { engineLogEvent } from "../../helpers/log-event-datagrams.ts";
import { type Mosquitto, skipWithoutMosquitto, startMosquitto } from "../../helpers/mosquitto.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { sendDatagrams } from "../../helpers/send-datagrams.ts";
import { spawnStewardIn, startStewardIn } from "../../helpers/started-steward.ts";

const skip = skipWithoutInfluxd() || skipWithoutMosquitto();

const APP_ID = "a421f4a2-c311-4ef4-ba41-fe2e6a2b0d69";
const USER_EVENT = `/qseow-proxy-connection/;pro2-win1;Close connection;userdir;user3;AppAccess;/app/${APP_ID}?reloaduri=https...;Some text UserAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:58.0) Gecko/20100101 Firefox/58.0'`;
// Event times are now: InfluxDB refuses points older than its retention policy (10 days here).
const now = new Date();
const compactNow = now.toISOString().replace(/[-:]/g, "").replace("Z", "+0000");
const SCHEDULER_EVENT = `/qseow-scheduler/;14;${compactNow};2021-11-09 19:37:44,331;ERROR;qs-node1;System.Scheduler.Scheduler.Slave.Tasks.ReloadTask;COMPANY\\qlikservice;Message from ReloadProvider: Reload failed in Engine. Check engine or script logs.;;LAB;goran;LAB\\goran;Manually triggered reload of Test failing reloads 2;Test failing reloads 2;dec2a02a-1680-44ef-8dc2-e2bfb180af87;e7af59a0-c243-480d-9571-08727551a66f;4831c6a5-34f6-45bb-9d40-73a6e6992670`;
const engineEvent = (row: number) => engineLogEvent(row, now);

let influxd: Influxd;
let broker: Mosquitto;
let observability: CaptureServer;

beforeAll(async () => {
  if (skip) return;
  [influxd, broker, observability] = await Promise.all([
    startInfluxd(),
    startMosquitto(),
    startCaptureServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([influxd?.close(), broker?.stop(), observability?.stop()]);
});

const workDirectory = () => scratchDirectory("steward-udp-");

interface Ports {
  user: number;
  log: number;
}

function writeConfig(dir: string, ports: Ports, database: string, extra = ""): void {
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
      dbName: ${database}
  mqttConfig:
    enable: true
    brokerHost: 127.0.0.1
    brokerPort: ${broker.port}
  obsPlatform:
    enable: true
    event:
      url: ${observability.url}
  thirdPartyToolsCredentials:
    obsPlatform:
      - accountName: ops
        insertApiKey: key-123
        accountId: 4711
  userEvents:
    enable: true
    udpServerConfig:
      serverHost: 127.0.0.1
      portUserActivityEvents: ${ports.user}
      enableSourceValidation: true
      allowedSources: [127.0.0.2]
    sendToMQTT:
      enable: true
    sendToTimeseriesdb:
      enable: true
    sendToObsPlatform:
      enable: true
      destinationAccount: [ops]
      scramble: false
  logEvents:
    udpServerConfig:
      serverHost: 127.0.0.1
      portLogEvents: ${ports.log}
    source:
      engine:
        enable: true
      scheduler:
        enable: true
    sendToMQTT:
      enable: true
    sendToTimeseriesdb:
      enable: true
    sendToObsPlatform:
      enable: true
      destinationAccount: [ops]
${extra}`,
  );
}

const send = (port: number, datagrams: readonly string[], from = "127.0.0.2") =>
  sendDatagrams(port, datagrams, from);

async function count(database: string, measurement: string, where = ""): Promise<number> {
  const result = await influxd.query(`SELECT count(*) FROM "${measurement}" ${where}`, database);
  const row = result.results[0]?.series?.[0]?.values[0];
  return row === undefined ? 0 : Math.max(...(row.slice(1) as number[]));
}

describe.skipIf(skip)("platform events over UDP, through `steward start`", () => {
  it("writes user and log events to InfluxDB, the broker and the observability platform, and flushes on SIGTERM", async () => {
    // Prepare
    const dir = workDirectory();
    const ports = { user: await freePort(), log: await freePort() };
    writeConfig(dir, ports, "udp_e2e");
    const subscriber = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`);
    const topics: string[] = [];
    subscriber.on("message", (topic) => topics.push(topic));
    await subscriber.subscribeAsync("qliksense/#");
    const proc = await startStewardIn(dir);

    // Act
    await send(ports.user, [USER_EVENT]);
    await send(ports.user, [USER_EVENT], "127.0.0.3"); // not an allowed source
    await send(ports.log, [SCHEDULER_EVENT, ...Array.from({ length: 50 }, (_, i) => engineEvent(i + 1))]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    proc.child.kill("SIGTERM");
    const { code } = await proc.exited();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await subscriber.endAsync();

    // Assess
    expect(code).toBe(0);
    expect(await count("udp_e2e", "user_events")).toBe(1);
    expect(await count("udp_e2e", "log_event")).toBe(51);
    expect(
      await count(
        "udp_e2e",
        "log_event",
        `WHERE "source" = 'qseow-scheduler' AND "task_name" = 'Manually triggered reload of Test failing reloads 2'`,
      ),
    ).toBe(1);
    const user = await influxd.query(`SELECT * FROM "user_events"`, "udp_e2e");
    const columns = user.results[0]?.series?.[0]?.columns ?? [];
    const values = user.results[0]?.series?.[0]?.values[0] ?? [];
    const userRow = Object.fromEntries(columns.map((column, i) => [column, values[i]]));
    expect(userRow).toMatchObject({
      host: "pro2-win1",
      event_action: "Close connection",
      userFull: "userdir\\user3",
      appId: APP_ID,
      appName: "<unknown app name>",
      uaBrowserName: "Firefox",
      uaBrowserMajorVersion: "58",
    });
    // Butler SOS's field names on InfluxDB 1.x, where a field may share a tag's name.
    const fieldNames = async (measurement: string) => {
      const answer = await influxd.query(`SHOW FIELD KEYS FROM "${measurement}"`, "udp_e2e");
      return (answer.results[0]?.series?.[0]?.values ?? []).map(([name]) => String(name)).sort();
    };
    expect(await fieldNames("user_events")).toEqual(["appId", "appName", "userFull", "userId"]);
    const logFields = await fieldNames("log_event");
    expect(logFields).toEqual(expect.arrayContaining(["result_code", "session_id", "app_name", "app_id"]));
    expect(logFields.filter((name) => name.endsWith("_field"))).toEqual([]);
    expect(topics).toContain("qliksense/userevent");
    expect(topics).toContain("qliksense/userevent/connection/close");
    expect(topics.filter((topic) => topic === "qliksense/logevent")).toHaveLength(51);
    expect(topics).toContain("qliksense/logevent/system/scheduler/scheduler/slave/tasks/reloadtask");
    const posted = observability.requests.filter((request) => request.path === "/v1/accounts/4711/events");
    const events = posted.flatMap((request) => JSON.parse(request.body) as { eventType: string }[]);
    expect(events.filter((event) => event.eventType === "qs_userEvent")).toHaveLength(1);
    expect(events.filter((event) => event.eventType === "qs_logEvent")).toHaveLength(51);
    expect(posted.every((request) => request.headers["api-key"] === "key-123")).toBe(true);
    expect(proc.output()).toMatch(/Rejected message from unauthorized source 127\.0\.0\.3/i);
  });

  it("exits 1 with the reason when a UDP port cannot be bound", async () => {
    // Prepare
    const dir = workDirectory();
    const taken = createSocket("udp4");
    await new Promise<void>((resolve) => taken.bind(0, "127.0.0.1", resolve));
    const ports = { user: await freePort(), log: taken.address().port };
    writeConfig(dir, ports, "udp_bind");

    // Act
    const proc = spawnStewardIn(dir);
    const { code } = await proc.exited();
    taken.close();

    // Assess
    expect(code).toBe(1);
    expect(proc.output()).toContain(`Log events: cannot bind UDP 127.0.0.1:${ports.log} (EADDRINUSE)`);
  });
});
