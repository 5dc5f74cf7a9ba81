/**
 * The shipped dashboards and alert rules against a running site: `steward start` polling the
 * simulated platform (two servers that answer, one that does not), fed UDP user, log and
 * reload-task events and audit events, and polling two simulated Qlik Cloud tenants (a failed and a
 * successful run each, points tagged with the tenant, and their licences read, points and gauges
 * tagged with the tenant; access licence points of both tenants in the site's shape are written
 * too, so the site's panels are tried with tenants' series), writing to Debian's InfluxDB 1.x and
 * scraped every second by Debian's Prometheus loaded with dashboards/prometheus/steward-rules.yml. Every query of every panel of
 * both dashboards runs against the server it targets, with Grafana's macros and the variables
 * at "All" expanded as Grafana does, and must return data; so must the variables' own queries.
 * The tenant variable lists both tenants; at "All" the reload and licence panels show the site's
 * data and both tenants', and with one tenant chosen that tenant's alone.
 * Then InfluxDB stops, and the destination rule must go pending and then firing within its `for`
 * (1 minute) plus a few scrapes.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessLicencePoints } from "../../../core/licences/index.ts";
import { encodePoints } from "../../../core/shared/line-protocol.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../../local/simulated-cloud/start-simulated-cloud.ts";
import type { SimulatedServer } from "../../../local/simulated-platform/simulated-server.ts";
import { recordedRun } from "../../../local/simulated-platform/task-event-sender.ts";
import type { SimRunOutcome } from "../../../local/simulated-platform/task-routes.ts";
import { startTestPlatform, type TestPlatform } from "../../fixtures/platform/test-platform.ts";
import { envelopeOfType } from "../../helpers/audit-envelopes.ts";
import { type CaptureServer, startCaptureServer } from "../../helpers/capture-server.ts";
import {
  allSelected,
  hasData,
  influxqlRows,
  influxqlSeries,
  influxqlValues,
  panelQueries,
  promqlSeries,
  promqlValues,
  readDashboard,
} from "../../helpers/dashboard-queries.ts";
import { eventually } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { type ExpandOptions, expandMacros } from "../../helpers/grafana-macros.ts";
import { postEvent } from "../../helpers/ingest-client.ts";
import { engineLogEvent } from "../../helpers/log-event-datagrams.ts";
import { operationsSiteConfig } from "../../helpers/operations-site-config.ts";
import { type Prometheus, skipWithoutPrometheus, startPrometheus } from "../../helpers/prometheus.ts";
import { sendDatagrams } from "../../helpers/send-datagrams.ts";
import { type StewardProcess, spawnSteward } from "../../helpers/steward-process.ts";
import { influxdForSuite } from "../../helpers/suite-influxd.ts";

const noPrometheus = skipWithoutPrometheus();
const { skip: noInfluxd, influxd } = influxdForSuite();
const skip = noPrometheus || noInfluxd;

const DATABASE = "operations";
const ENVIRONMENT = "test";
const APP = "Sales dashboard";
const RULES = join(import.meta.dirname, "..", "..", "..", "dashboards", "prometheus", "steward-rules.yml");
const INFLUXDB_DASHBOARD = readDashboard("steward-qlik-sense-influxdb.json");
const PROMETHEUS_DASHBOARD = readDashboard("steward-qlik-sense-prometheus.json");

/** What every panel of the InfluxDB dashboard reads, so the test waits until each has points. */
const MEASUREMENTS = [
  "mem",
  "cpu",
  "session",
  "users",
  "apps",
  "cache",
  "saturated",
  "sense_server",
  "user_session_summary",
  "qlik_sense_license",
  "qlik_sense_server_license",
  "qlik_sense_version",
  "qlik_sense_license_release",
  "reload_task_failed",
  "reload_task_success",
  "task_events_queue",
  "user_events",
  "log_event",
  "rejected_event_count",
  "user_events_queue",
  "log_events_queue",
  "event_count",
  "audit_event",
  "audit_events_queue",
  "steward_memory_usage",
  "butler_sos_errors",
];

function datagrams(at: Date) {
  const iso = at.toISOString();
  const session = "6f2c1a70-2c4e-4d0b-9a59-1d7e1f0c2b11";
  const perfApp = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
  const perf = (method: string, ms: string) =>
    `/qseow-qix-perf/;1523;${iso};2025-03-12 10:15:12,123;INFO;qs-node1;QixPerformance.Engine.Engine;LAB\\goran;1;LAB;goran;${iso};${session};${perfApp};42;${method};${ms};11.2;0.1;0.3;0.9;1;obj1;123456;234567;sheet`;
  return {
    user: [
      "/qseow-proxy-connection/;qs-node1;Open connection;LAB;anna;AppAccess;/app/a421f4a2-c311-4ef4-ba41-fe2e6a2b0d69;UserAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:58.0) Gecko/20100101 Firefox/58.0'",
      "/qseow-proxy-session/;qs-node1;Start session;LAB;anna;https://qs-node1;/hub;UserAgent: Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
      "/qseow-proxy-session/;qs-node1;Stop session;LAB;bert;https://qs-node1;/hub;UserAgent: Chrome/91.0",
    ],
    log: [
      engineLogEvent(1, at),
      `/qseow-proxy/;5;${iso};2021-11-09 15:37:26,028;WARN;qs-node1;Audit.Proxy.Proxy.SessionManagement;COMPANY\\svc;Session ended;Timeout;LAB;goran;Stop session;201;AppAccess;/hub`,
      `/qseow-repository/;7;${iso};2021-11-09 15:37:26,028;ERROR;qs-node1;System.Repository.Repository.Core;COMPANY\\svc;Sync failed;Connection lost;;;Sync;500;Service;/qrs/sync`,
      `/qseow-scheduler/;14;${iso};2021-11-09 19:37:44,331;ERROR;qs-node1;System.Scheduler.Scheduler.Slave.Tasks.ReloadTask;COMPANY\\qlikservice;Reload failed;;LAB;goran;LAB\\goran;Reload of Sales;Sales;dec2a02a-1680-44ef-8dc2-e2bfb180af87;e7af59a0-c243-480d-9571-08727551a66f;4831c6a5-34f6-45bb-9d40-73a6e6992670`,
      perf("Doc::GetAppLayout", "12.5"), // kept by the monitor
      perf("Doc::GetAppLayout", "40.25"),
      perf("Doc::GetLayout", "3.5"), // not monitored: counted in rejected_event_count
    ],
  };
}

/**
 * Audit events of four types in one app, by two users, and one dated long before the database's
 * retention policy, which InfluxDB refuses: the refused-items panel's data.
 */
function auditEvents(): Record<string, unknown>[] {
  const types = [
    "navigation.sheet.loaded",
    "object.view.duration",
    "selection.state.changed",
    "screenshot.url.received",
  ];
  return types.flatMap((type, index) => {
    const envelope = envelopeOfType(type);
    const payload = envelope.payload as Record<string, unknown>;
    const context = {
      ...((payload.context as Record<string, unknown>) ?? {}),
      appId: "a421f4a2-c311-4ef4-ba41-fe2e6a2b0d69",
      appName: APP,
      user: `UserDirectory=LAB; UserId=${index % 2 === 0 ? "anna" : "bert"}`,
    };
    const event = {
      ...envelope,
      eventId: randomUUID(),
      timestamp: new Date().toISOString(),
      payload: { ...payload, context },
    };
    return index === 0
      ? [event, { ...event, eventId: randomUUID(), timestamp: "2025-01-15T10:00:00.000Z" }]
      : [event];
  });
}

/** A reload-task run the simulated repository knows, and the scheduler's datagram about it. */
function taskRun(outcome: SimRunOutcome): string {
  return recordedRun(platform.repository.taskEvents, outcome, { stoppedAtMs: Date.now() - 1000 });
}

let platform: TestPlatform;
let cloud: SimulatedCloud;
let heartbeat: CaptureServer;
let prometheus: Prometheus;
let steward: StewardProcess;
let directory: string | undefined;
let startedMs = 0;

const influxUrl = () => `http://127.0.0.1:${influxd.port}`;

async function points(measurement: string): Promise<number> {
  const values = await influxqlValues(influxUrl(), DATABASE, `SELECT count(*) FROM "${measurement}"`).catch(
    () => [],
  );
  return Math.max(0, ...values.map(Number).filter(Number.isFinite));
}

function range(dashboard: typeof INFLUXDB_DASHBOARD): ExpandOptions {
  return {
    range: { fromMs: startedMs - 60_000, toMs: Date.now() },
    minIntervalMs: 1000,
    variables: allSelected(dashboard),
  };
}

const TENANTS = ["sim-a", "sim-b"];

/** Whether both tenants' failed and successful runs are in the reload measurements. */
async function tenantsWritten(): Promise<boolean> {
  for (const measurement of ["reload_task_failed", "reload_task_success"]) {
    const rows = await influxqlRows(
      influxUrl(),
      DATABASE,
      `SHOW TAG VALUES FROM "${measurement}" WITH KEY = "tenant"`,
    ).catch(() => []);
    if (rows.length < TENANTS.length) return false;
  }
  return true;
}

/**
 * Access licence points of both tenants, as the licence monitor's points (accessLicencePoints)
 * with the tenant's `tenant` tag, which a tenant's licence points carry; the site's come from the
 * licence monitor.
 */
async function writeTenantLicences(): Promise<void> {
  const points = TENANTS.flatMap((tenant, index) =>
    accessLicencePoints(
      [
        { type: "professional", counts: { allocated: 10 + index, used: 4, available: 6 + index, total: 20 } },
        { type: "analyzer", counts: { allocated: 30, used: 12 + index, available: 18 - index, total: 40 } },
        { type: "analyzer_capacity", counts: { allocated_minutes: 600, used_minutes: 120 + index } },
      ],
      { qs_env: ENVIRONMENT, tenant },
      Date.now(),
    ),
  );
  // Steward creates the database at its first write; creating it is idempotent.
  await fetch(`${influxUrl()}/query?q=${encodeURIComponent(`CREATE DATABASE "${DATABASE}"`)}`, {
    method: "POST",
  });
  const answer = await fetch(`${influxUrl()}/write?db=${DATABASE}&precision=n`, {
    method: "POST",
    body: encodePoints(points),
  });
  if (answer.status !== 204) throw new Error(`tenant licences not written: ${await answer.text()}`);
}

beforeAll(async () => {
  if (skip) return;
  startedMs = Date.now();
  platform = await startTestPlatform({ servers: 3 });
  await (platform.servers[2] as SimulatedServer).stop(); // a server that does not answer: error points
  cloud = await startSimulatedCloud({ tenants: 2 });
  for (const tenant of cloud.tenants) {
    tenant.finishReload({ status: "FAILED" });
    tenant.finishReload({ status: "SUCCEEDED" });
  }
  heartbeat = await startCaptureServer();
  heartbeat.respondWith(200);
  const ports = {
    user: await freePort(),
    log: await freePort(),
    task: await freePort(),
    scrape: await freePort(),
    ingest: await freePort(),
    rest: await freePort(),
  };
  directory = mkdtempSync(join(tmpdir(), "steward-dashboards-"));
  writeFileSync(
    join(directory, "steward.yaml"),
    operationsSiteConfig({
      platform,
      serverNames: ["alpha", "beta", "gamma"],
      influx: { port: influxd.port, database: DATABASE },
      ports,
      heartbeatUrl: heartbeat.url,
      environment: ENVIRONMENT,
      tenants: cloud.tenants,
    }),
  );
  steward = spawnSteward(["start", "--config", "steward.yaml"], { cwd: directory });
  await steward.waitFor(/steward ready/, 30_000);
  prometheus = await startPrometheus({
    targets: [`127.0.0.1:${ports.scrape}`],
    targetLabels: { qs_env: ENVIRONMENT },
    ruleFiles: [RULES],
    interval: "1s",
  });

  const sent = datagrams(new Date());
  await sendDatagrams(ports.user, sent.user);
  await sendDatagrams(ports.log, sent.log);
  await sendDatagrams(ports.task, [taskRun("failed"), taskRun("success")]);
  for (const event of auditEvents()) {
    const answer = await postEvent(`http://127.0.0.1:${ports.ingest}/api/v1/audit-event`, event);
    if (answer.status !== 202) throw new Error(`audit event refused: ${JSON.stringify(answer)}`);
  }
  await writeTenantLicences();
  const written = await eventually(
    async () => (await Promise.all(MEASUREMENTS.map(points))).every((n) => n > 0) && (await tenantsWritten()),
    30_000,
    250,
  );
  if (!written) {
    const counts = Object.fromEntries(await Promise.all(MEASUREMENTS.map(async (m) => [m, await points(m)])));
    throw new Error(`measurements without points: ${JSON.stringify(counts)}\n${steward.output()}`);
  }
  // Counter panels read increases over two scrapes at least, the audit queue's over two writes.
  await eventually(async () => (await points("audit_events_queue")) >= 4, 10_000, 250);
  await prometheus.scraped(8);
}, 90_000);

afterAll(async () => {
  steward?.child.kill("SIGKILL");
  await prometheus?.close();
  await heartbeat?.stop();
  await platform?.stop();
  await cloud?.stop();
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
});

/** The dashboard's variables at "All", but `tenant` at `selection`. */
function withTenant(dashboard: typeof INFLUXDB_DASHBOARD, selection: "$__all" | string[]): ExpandOptions {
  const options = range(dashboard);
  return { ...options, variables: { ...options.variables, tenant: { selection, allValue: ".*" } } };
}

function panelQuery(dashboard: typeof INFLUXDB_DASHBOARD, name: string) {
  const found = panelQueries(dashboard).find((query) => query.name === name);
  if (found === undefined) throw new Error(`no panel query ${name}`);
  return found;
}

describe.skipIf(skip)("the tenant variable of the shipped dashboards, with two Qlik Cloud tenants", () => {
  /** The InfluxQL query's series: the `tenant` of each row (`column`) or of each series' GROUP BY tags. */
  async function influxTenants(name: string, selection: "$__all" | string[], column?: string) {
    const text = expandMacros(
      panelQuery(INFLUXDB_DASHBOARD, name).text,
      withTenant(INFLUXDB_DASHBOARD, selection),
    );
    const series = await influxqlSeries(influxUrl(), DATABASE, text);
    const tenants =
      column === undefined
        ? series.map((each) => each.tags.tenant ?? "")
        : series.flatMap((each) => each.rows.map((row) => (row[column] as string | null) ?? ""));
    return new Set(tenants);
  }

  async function prometheusTenants(name: string, selection: "$__all" | string[]) {
    const series = await promqlSeries(
      prometheus.api,
      panelQuery(PROMETHEUS_DASHBOARD, name),
      withTenant(PROMETHEUS_DASHBOARD, selection),
    );
    return new Set(series.map((each) => each.labels.tenant ?? ""));
  }

  it("lists both tenants, from InfluxDB and from Prometheus", async () => {
    const influx = INFLUXDB_DASHBOARD.templating.list.find((variable) => variable.name === "tenant");
    const rows = await influxqlRows(
      influxUrl(),
      DATABASE,
      expandMacros(influx?.query ?? "", range(INFLUXDB_DASHBOARD)),
    );
    expect(new Set(rows.map((row) => row.value))).toEqual(new Set(TENANTS));

    // Grafana answers label_values(SELECTOR, tenant) from the series SELECTOR matches.
    const prom = PROMETHEUS_DASHBOARD.templating.list.find((variable) => variable.name === "tenant");
    const selector = /^label_values\((.+), tenant\)$/.exec(prom?.query ?? "")?.[1] ?? "";
    const series = (await prometheus.api("series", {
      "match[]": expandMacros(selector, range(PROMETHEUS_DASHBOARD)),
    })) as { tenant: string }[];
    expect(new Set(series.map((labels) => labels.tenant))).toEqual(new Set(TENANTS));
  });

  it("shows at All the site's reloads and licences beside both tenants', and one tenant's alone when chosen (InfluxDB)", async () => {
    const failed = "Failed reloads, latest first / A";
    expect(await influxTenants(failed, "$__all", "tenant")).toEqual(new Set(["", ...TENANTS]));
    expect(await influxTenants(failed, ["sim-b"], "tenant")).toEqual(new Set(["sim-b"]));
    const available = "Access licences available / A";
    expect(await influxTenants(available, "$__all")).toEqual(new Set(["", ...TENANTS]));
    expect(await influxTenants(available, ["sim-a"])).toEqual(new Set(["sim-a"]));
    const capacity = "Analyzer capacity minutes / A";
    expect(await influxTenants(capacity, ["sim-b"])).toEqual(new Set(["sim-b"]));
    // What Steward read of the tenants' licences: their time-based analyzer allotment.
    const analyzerTime = "Analyzer capacity minutes / B";
    expect(await influxTenants(analyzerTime, "$__all")).toEqual(new Set(TENANTS));
    expect(await influxTenants(analyzerTime, ["sim-b"])).toEqual(new Set(["sim-b"]));
    for (const name of ["Reloads per interval / A", "Reloads per interval / B"]) {
      const text = expandMacros(
        panelQuery(INFLUXDB_DASHBOARD, name).text,
        withTenant(INFLUXDB_DASHBOARD, ["sim-a"]),
      );
      expect(hasData(await influxqlValues(influxUrl(), DATABASE, text)), name).toBe(true);
    }
  });

  it("shows at All the site's task events and licences beside both tenants', and one tenant's alone when chosen (Prometheus)", async () => {
    const runs = "Qlik Cloud runs, by tenant and outcome / A";
    expect(await prometheusTenants(runs, "$__all")).toEqual(new Set(TENANTS));
    expect(await prometheusTenants(runs, ["sim-a"])).toEqual(new Set(["sim-a"]));
    expect(await prometheusTenants("Qlik Cloud polling lag, by tenant / A", ["sim-b"])).toEqual(
      new Set(["sim-b"]),
    );
    // The licence gauges: the site's (no tenant label) beside both tenants' at All.
    const available = "Access licences available / A";
    expect(await prometheusTenants(available, "$__all")).toEqual(new Set(["", ...TENANTS]));
    expect(await prometheusTenants(available, ["sim-a"])).toEqual(new Set(["sim-a"]));
    expect(await prometheusTenants("Analyzer capacity minutes / C", "$__all")).toEqual(new Set(TENANTS));
    const taskEvents = panelQuery(PROMETHEUS_DASHBOARD, "Reload-task events, by kind and outcome / A");
    const site = await promqlValues(prometheus.api, taskEvents, withTenant(PROMETHEUS_DASHBOARD, "$__all"));
    expect(hasData(site), "the site's task events at All").toBe(true);
    // The site's task events carry no tenant: a chosen tenant leaves them out.
    expect(
      await promqlValues(prometheus.api, taskEvents, withTenant(PROMETHEUS_DASHBOARD, ["sim-a"])),
    ).toEqual([]);
  });
});

describe.skipIf(skip)("the shipped dashboards and alert rules on a running site", () => {
  it("every InfluxQL panel query returns data from InfluxDB", async () => {
    const options = range(INFLUXDB_DASHBOARD);
    const empty: string[] = [];
    for (const query of panelQueries(INFLUXDB_DASHBOARD)) {
      const values = await influxqlValues(influxUrl(), DATABASE, expandMacros(query.text, options));
      if (!hasData(values)) empty.push(query.name);
    }
    expect(empty, "panels without data").toEqual([]);
  });

  it("the InfluxDB dashboard's variables list the environment, the servers and the app", async () => {
    const options = range(INFLUXDB_DASHBOARD);
    // Grafana lists the `value` column of SHOW TAG VALUES, each value once.
    const values = async (name: string) => {
      const variable = INFLUXDB_DASHBOARD.templating.list.find((v) => v.name === name);
      const rows = await influxqlRows(influxUrl(), DATABASE, expandMacros(variable?.query ?? "", options));
      return new Set(rows.map((row) => row.value));
    };
    expect(await values("environment")).toEqual(new Set([ENVIRONMENT]));
    // gamma never answered its health poll, so it has no cpu points to list it.
    expect(await values("server")).toEqual(new Set(["alpha", "beta"]));
    expect(await values("app")).toContain(APP);
  });

  it("every PromQL panel query returns data from Prometheus", async () => {
    const options = range(PROMETHEUS_DASHBOARD);
    const empty: string[] = [];
    for (const query of panelQueries(PROMETHEUS_DASHBOARD)) {
      if (!hasData(await promqlValues(prometheus.api, query, options))) empty.push(query.name);
    }
    expect(empty, "panels without data").toEqual([]);
  });

  it("the Prometheus dashboard's variables list the environment and the servers that answer", async () => {
    const environments = (await prometheus.api("label/qs_env/values", {})) as string[];
    expect(environments).toContain(ENVIRONMENT);
    const series = (await prometheus.api("series", {
      "match[]": `steward_engine_metadata{qs_env=~".*"}`,
    })) as { server_name: string }[];
    expect(new Set(series.map((labels) => labels.server_name))).toEqual(new Set(["alpha", "beta"]));
  });

  it("with InfluxDB stopped, the destination rule goes pending and then firing within its 1 minute plus a few scrapes", async () => {
    const rule = (alert: { labels: Record<string, string> }) =>
      alert.labels.alertname === "StewardDestinationWriteErrors" &&
      alert.labels.destination === "timeseriesdb";
    expect((await prometheus.alerts()).filter(rule), "fires while InfluxDB is up").toEqual([]);

    const stoppedMs = Date.now();
    await influxd.stop();
    let pendingMs: number | undefined;
    let firingMs: number | undefined;
    await eventually(
      async () => {
        const state = (await prometheus.alerts()).find(rule)?.state;
        if (state !== undefined) pendingMs ??= Date.now() - stoppedMs;
        if (state === "firing") firingMs = Date.now() - stoppedMs;
        return firingMs !== undefined;
      },
      90_000,
      500,
    );
    console.log(`destination rule after InfluxDB stopped: pending ${pendingMs} ms, firing ${firingMs} ms`);
    expect(pendingMs, "pending").toBeLessThan(15_000);
    expect(firingMs, "firing").toBeGreaterThanOrEqual(60_000);
    expect(firingMs, "firing").toBeLessThan(60_000 + 15_000);
  }, 120_000);
});
