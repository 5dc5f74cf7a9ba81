/**
 * Taking over a database Butler SOS filled, as a site switches: InfluxDB 1.x (Debian's influxd)
 * holds one point of every agent measurement written with Butler SOS 15.0.1's field types on
 * 1.x (raw line protocol written here, the oracle), then one `steward start` writes into the same
 * database everything the agent writes — UDP user events and log events of every source
 * (performance events included, kept and rejected), event counts, rejected-event counts, both
 * queues' metrics, health and sessions from the simulated platform, its memory and the error
 * points of the servers that fail. InfluxDB refuses a point whose field changes type in a shard
 * (`field type conflict`), so every measurement must get Steward's points and keep one type per
 * field, Butler SOS's.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedServer } from "../../../local/simulated-platform/simulated-server.ts";
import { startTestPlatform, type TestPlatform } from "../../fixtures/platform/test-platform.ts";
import { eventually } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { parseLineProtocol } from "../../helpers/line-protocol-parser.ts";
import { engineLogEvent } from "../../helpers/log-event-datagrams.ts";
import { sendDatagrams } from "../../helpers/send-datagrams.ts";
import { type StewardProcess, spawnSteward } from "../../helpers/steward-process.ts";
import { influxdForSuite } from "../../helpers/suite-influxd.ts";

const { skip, influxd } = influxdForSuite();
const DATABASE = "butler_sos";

const QUEUE_FIELDS = [
  "queue_size",
  "queue_max_size",
  "queue_utilization_pct",
  "queue_running",
  "messages_received",
  "messages_queued",
  "messages_processed",
  "messages_failed",
  "messages_dropped_total",
  "messages_dropped_rate_limit",
  "messages_dropped_queue_full",
  "messages_dropped_size",
  "processing_time_avg_ms",
  "processing_time_p95_ms",
  "processing_time_max_ms",
  "rate_limit_current",
  "backpressure_active",
]
  .map((name) => `${name}=0`)
  .join(",");

/**
 * What Butler SOS 15.0.1 writes to InfluxDB 1.x: its client (node-influx) types the fields of the
 * measurements it has a schema for (`i` integers, floats, strings) and writes every other number
 * bare, which InfluxDB stores as a float. The memory measurement has Steward's name.
 */
const BUTLER_SOS_V1_POINTS = [
  'sense_server,host=seed version="x",started="x",uptime="x"',
  "mem,host=seed comitted=1i,allocated=1i,free=1i",
  'apps,host=seed active_docs_count=1i,loaded_docs_count=1i,in_memory_docs_count=1i,active_docs="",active_docs_names="",active_session_docs_names="",loaded_docs="",loaded_docs_names="",loaded_session_docs_names="",in_memory_docs="",in_memory_docs_names="",in_memory_session_docs_names="",calls=1i,selections=1i',
  "cpu,host=seed total=1i",
  "session,host=seed active=1i,total=1i",
  "users,host=seed active=1i,total=1i",
  "cache,host=seed hits=1i,lookups=1i,added=1i,replaced=1i,bytes_added=1i",
  "saturated,host=seed saturated=false",
  'user_session_summary,host=seed session_count=1i,session_user_id_list=""',
  'user_session_list,host=seed session_user_id_list=""',
  'user_session_details,host=seed session_id="",user_directory="",user_id=""',
  'user_events,host=seed userFull="",userId="",appId="",appName=""',
  'log_event,host=seed message="",exception_message="",command="",result_code="",origin="",context="",session_id="",app_name="",app_id="",execution_id="",raw_event="",process_time=1.5,work_time=1.5,lock_time=1.5,validate_time=1.5,traverse_time=1.5,handle=1i,net_ram=1i,peak_ram=1i',
  "event_count,host=seed counter=1",
  "rejected_event_count,source=seed counter=1,process_time=1.5",
  `user_events_queue,host=seed ${QUEUE_FIELDS}`,
  `log_events_queue,host=seed ${QUEUE_FIELDS}`,
  "steward_memory_usage,instance=seed heap_used=1.5,heap_total=1.5,external=1.5,process_memory=1.5",
  'butler_sos_errors,error_type=seed error_count=1,error_category="",error_code="",request_url="",remote_address="",syscall="",request_timeout_ms=1,remote_port=1,http_status=1',
];
const SEEDED = parseLineProtocol(BUTLER_SOS_V1_POINTS.join("\n"));
const MEASUREMENTS = SEEDED.map((point) => point.measurement);

const APP_ID = "a421f4a2-c311-4ef4-ba41-fe2e6a2b0d69";
const PERF_APP_ID = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const SESSION_ID = "6f2c1a70-2c4e-4d0b-9a59-1d7e1f0c2b11";

/** Every datagram the test sends, stamped `at` (InfluxDB refuses points past the retention). */
function datagrams(at: Date) {
  const iso = at.toISOString();
  const perf = (method: string) =>
    `/qseow-qix-perf/;1523;${iso};2025-03-12 10:15:12,123;INFO;qs-node1;QixPerformance.Engine.Engine;LAB\\goran;1;LAB;goran;${iso};${SESSION_ID};${PERF_APP_ID};42;${method};12.5;11.2;0.1;0.3;0.9;1;obj1;123456;234567;sheet`;
  return {
    user: [
      `/qseow-proxy-connection/;pro2-win1;Open connection;userdir;user3;AppAccess;/app/${APP_ID}?reloaduri=https...;UserAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:58.0) Gecko/20100101 Firefox/58.0'`,
      "/qseow-proxy-session/;host2;Start session;LAB;anna;https://host2;/hub;UserAgent: Chrome/91.0",
    ],
    log: [
      engineLogEvent(1, at),
      `/qseow-proxy/;5;${iso};2021-11-09 15:37:26,028;WARN;host1;Audit.Proxy.Proxy.SessionManagement;COMPANY\\svc;Session ended;Timeout;LAB;goran;Stop session;201;AppAccess;/hub`,
      `/qseow-repository/;7;${iso};2021-11-09 15:37:26,028;ERROR;host3;System.Repository.Repository.Core;COMPANY\\svc;Sync failed;Connection lost;;;Sync;500;Service;/qrs/sync`,
      `/qseow-scheduler/;14;${iso};2021-11-09 19:37:44,331;ERROR;qs-node1;System.Scheduler.Scheduler.Slave.Tasks.ReloadTask;COMPANY\\qlikservice;Reload failed;;LAB;goran;LAB\\goran;Reload of Sales;Sales;dec2a02a-1680-44ef-8dc2-e2bfb180af87;e7af59a0-c243-480d-9571-08727551a66f;4831c6a5-34f6-45bb-9d40-73a6e6992670`,
      perf("Doc::GetAppLayout"), // kept by the monitor: a log_event point
      perf("Doc::GetLayout"), // rejected by the monitor: counted in rejected_event_count
    ],
  };
}

let platform: TestPlatform;
let steward: StewardProcess;
let seededBeforeMs = 0;
let exitCode: number | null = null;
let directory: string | undefined;

const server = (index: number) => platform.servers[index] as SimulatedServer;

async function query(q: string) {
  const answer = await influxd.query(q, DATABASE);
  const result = answer.results[0];
  if (result?.error !== undefined) throw new Error(`${q}: ${result.error}`);
  return result?.series ?? [];
}

/** Points Steward wrote (the seed is older), 0 when none. */
async function stewardPoints(measurement: string): Promise<number> {
  const [series] = await query(`SELECT count(*) FROM "${measurement}" WHERE time > ${seededBeforeMs}ms`);
  const row = series?.values[0];
  return row === undefined ? 0 : Math.max(...(row.slice(1) as number[]));
}

/** `SHOW FIELD KEYS` of the measurement as [field, type] rows. */
async function fieldKeys(measurement: string): Promise<[string, string][]> {
  const [series] = await query(`SHOW FIELD KEYS FROM "${measurement}"`);
  return (series?.values ?? []) as [string, string][];
}

function config(ports: { user: number; log: number }): string {
  const pki = platform.pki;
  const entry = (index: number, name: string, sessions = "") => `      - host: ${server(index).address}
        serverName: ${name}
        serverDescription: ${name} node
${sessions}`;
  return `Service:
  restServer:
    enable: false
  auditEvents:
    enable: false
  cert:
    clientCert: ${pki.clientCertPath}
    clientCertKey: ${pki.clientKeyPath}
    clientCertCA: ${pki.caPath}
  platform:
    repositoryPort: ${server(0).port}
  timeseriesdbConfig:
    enable: true
    version: 1
    host: 127.0.0.1
    port: ${influxd.port}
    v1Config:
      dbName: ${DATABASE}
  errorTracking:
    enable: true
  uptimeMonitor:
    enable: true
    frequency: every 1 second
  platformEvents:
    timeseriesdb:
      enable: true
      writeFrequency: 500
    eventCount:
      enable: true
    rejectedEventCount:
      enable: true
  userEvents:
    enable: true
    udpServerConfig:
      serverHost: 127.0.0.1
      portUserActivityEvents: ${ports.user}
      queueMetrics:
        timeseriesdb:
          enable: true
          writeFrequency: 500
    sendToTimeseriesdb:
      enable: true
  logEvents:
    udpServerConfig:
      serverHost: 127.0.0.1
      portLogEvents: ${ports.log}
      queueMetrics:
        timeseriesdb:
          enable: true
          writeFrequency: 500
    source:
      engine:
        enable: true
      proxy:
        enable: true
      repository:
        enable: true
      scheduler:
        enable: true
      engineApiPerf:
        enable: true
    enginePerformanceMonitor:
      enable: true
      trackRejectedEvents:
        enable: true
      monitorFilter:
        allApps:
          enable: true
          method:
            allMethods: false
            someMethodsInclude: [Doc::GetAppLayout]
    sendToTimeseriesdb:
      enable: true
  userSessions:
    enableSessionExtract: true
    pollingInterval: 1000
  serversToMonitor:
    pollingInterval: 1000
    rejectUnauthorized: true
    servers:
${entry(
  0,
  "alpha",
  `        userSessions:
          enable: true
          host: ${server(0).address}
          virtualProxies:
            - virtualProxy: /
`,
)}${entry(1, "beta")}${entry(2, "gamma")}`;
}

beforeAll(async () => {
  if (skip) return;
  platform = await startTestPlatform({ servers: 3 });
  server(1).fault = "status500"; // an error point with http_status
  await server(2).stop(); // an error point with error_code
  // The database as Butler SOS created it (its retention policy the default) and filled it.
  await query(`CREATE DATABASE ${DATABASE} WITH DURATION 10d REPLICATION 1 NAME "10d"`);
  const seeded = await fetch(`http://127.0.0.1:${influxd.port}/write?db=${DATABASE}&precision=ms`, {
    method: "POST",
    body: BUTLER_SOS_V1_POINTS.join("\n"),
  });
  if (seeded.status !== 204) throw new Error(`seeding failed: ${seeded.status} ${await seeded.text()}`);
  seededBeforeMs = Date.now() + 1;
  await new Promise((resolve) => setTimeout(resolve, 5));

  directory = mkdtempSync(join(tmpdir(), "steward-takeover-"));
  const ports = { user: await freePort(), log: await freePort() };
  writeFileSync(join(directory, "steward.yaml"), config(ports));
  steward = spawnSteward(["start", "--config", "steward.yaml"], { cwd: directory });
  await steward.waitFor(/steward ready/, 30_000);
  const sent = datagrams(new Date());
  await sendDatagrams(ports.user, sent.user);
  await sendDatagrams(ports.log, sent.log);
  // Every measurement gets Steward's points within a few write intervals, unless they are refused.
  await eventually(
    async () => (await Promise.all(MEASUREMENTS.map(stewardPoints))).every((n) => n > 0),
    20_000,
    250,
  );
  steward.child.kill("SIGTERM");
  exitCode = (await steward.exited()).code;
}, 90_000);

afterAll(async () => {
  steward?.child.kill("SIGKILL");
  await platform?.stop();
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
});

describe.skipIf(skip)("taking over a database Butler SOS filled, InfluxDB 1.x", () => {
  it("writes every agent measurement into it, nothing refused, and stops with status 0", async () => {
    const written = Object.fromEntries(
      await Promise.all(MEASUREMENTS.map(async (m) => [m, await stewardPoints(m)] as const)),
    );

    const without = MEASUREMENTS.filter((measurement) => !((written[measurement] ?? 0) > 0));
    expect(without, "measurements without Steward's points").toEqual([]);
    expect(steward.output()).not.toMatch(/field type conflict/);
    expect(exitCode).toBe(0);
  });

  it("leaves one type per field, the type Butler SOS wrote", async () => {
    for (const point of SEEDED) {
      const keys = await fieldKeys(point.measurement);
      const names = keys.map(([name]) => name);
      expect(names, `${point.measurement}: a field listed twice`).toEqual([...new Set(names)]);
      const types = Object.fromEntries(keys);
      for (const [name, field] of Object.entries(point.fields)) {
        expect(types[name], `${point.measurement}.${name}`).toBe(field.type);
      }
    }
  });

  it("keeps Butler SOS's 1.x field names in user_events and log_event: no <name>_field", async () => {
    for (const measurement of ["user_events", "log_event"]) {
      const names = (await fieldKeys(measurement)).map(([name]) => name);
      expect(
        names.filter((name) => name.endsWith("_field")),
        measurement,
      ).toEqual([]);
    }
  });
});
