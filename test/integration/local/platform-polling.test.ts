/**
 * Platform polling end to end, as a user runs it: `steward start` with a config that polls four
 * simulated servers over mutual TLS (one answers, one answers 500, one is unreachable, one answers
 * after the call's timeout) for engine health and proxy sessions, with all four exporters on —
 * InfluxDB 1.x (Debian's influxd), the broker (mosquitto), the observability platform's metric API
 * (a capture server) and the scrape endpoint (read with the strict exposition reader); then
 * SIGTERM.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedServer } from "../../../local/simulated-platform/simulated-server.ts";
import { startTestPlatform, type TestPlatform } from "../../fixtures/platform/test-platform.ts";
import { type CaptureServer, startCaptureServer } from "../../helpers/capture-server.ts";
import { until } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { type Influxd, skipWithoutInfluxd, startInfluxd } from "../../helpers/influxd.ts";
import { type Mosquitto, skipWithoutMosquitto, startMosquitto } from "../../helpers/mosquitto.ts";
import { parsePrometheusText, type ScrapedMetric, sampleValue } from "../../helpers/prometheus-text.ts";
import { type StewardProcess, spawnSteward } from "../../helpers/steward-process.ts";

const skip = skipWithoutInfluxd() || skipWithoutMosquitto();
const DATABASE = "polling_e2e";
const HEALTH_MEASUREMENTS = ["sense_server", "mem", "apps", "cpu", "session", "users", "cache", "saturated"];

let influxd: Influxd;
let broker: Mosquitto;
let observability: CaptureServer;
let platform: TestPlatform;
let steward: StewardProcess;
let scrapePort: number;
let directory: string;
const topics = new Map<string, string>();
let subscriber: mqtt.MqttClient | undefined;
let exitCode: number | null | undefined;

const server = (index: number) => platform.servers[index] as SimulatedServer;

beforeAll(async () => {
  if (skip) return;
  [influxd, broker, observability, platform] = await Promise.all([
    startInfluxd(),
    startMosquitto(),
    startCaptureServer(),
    startTestPlatform({ servers: 4 }),
  ]);
  server(1).fault = "status500";
  await server(2).stop();
  server(3).fault = "slow";
  server(3).slowAnswerMs = 60_000;
  scrapePort = await freePort();
  directory = mkdtempSync(join(tmpdir(), "steward-polling-"));
  writeFileSync(join(directory, "steward.yaml"), config());
  subscriber = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`);
  subscriber.on("message", (topic, payload) => topics.set(topic, payload.toString()));
  await subscriber.subscribeAsync("steward/#");
  steward = spawnSteward(["start", "--config", "steward.yaml"], { cwd: directory });
  await steward.waitFor(/steward ready/);
  // The slow server's call times out after 5 s; by then later beats have found the round running.
  await until(() => /health round is still running/.test(steward.output()), 15_000, 100);
  await until(async () => (await count("mem", `WHERE "server_name" = 'alpha'`)) >= 2, 10_000, 100);
}, 60_000);

afterAll(async () => {
  steward?.child.kill("SIGKILL");
  await subscriber?.endAsync();
  await Promise.all([influxd?.close(), broker?.stop(), observability?.stop(), platform?.stop()]);
  if (directory) rmSync(directory, { recursive: true, force: true });
});

function config(): string {
  const pki = platform.pki;
  const entry = (index: number, name: string, extra = "") => `      - host: ${server(index).address}
        serverName: ${name}
        serverDescription: ${name} node
        serverTags:
          site: eu
${extra}`;
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
  appNames:
    enableAppNameExtract: true
    hostIP: 127.0.0.1
  timeseriesdbConfig:
    enable: true
    version: 1
    host: 127.0.0.1
    port: ${influxd.port}
    v1Config:
      dbName: ${DATABASE}
    includeFields:
      activeDocs: true
      loadedDocs: true
      inMemoryDocs: true
  mqttConfig:
    enable: true
    brokerHost: 127.0.0.1
    brokerPort: ${broker.port}
    baseTopic: steward/
  obsPlatform:
    enable: true
    metric:
      url: ${observability.url}/metric/v1
      destinationAccount: [ops]
  thirdPartyToolsCredentials:
    obsPlatform:
      - accountName: ops
        insertApiKey: key-123
        accountId: 4711
  scrapeEndpoint:
    enable: true
    port: ${scrapePort}
  userSessions:
    enableSessionExtract: true
    pollingInterval: 1000
  serversToMonitor:
    pollingInterval: 1000
    rejectUnauthorized: true
    serverTagsDefinition: [site]
    servers:
${entry(
  0,
  "alpha",
  `        headers:
          X-Team: operations
        userSessions:
          enable: true
          host: ${server(0).address}
          virtualProxies:
            - virtualProxy: /
            - virtualProxy: /hdr
`,
)}${entry(1, "beta")}${entry(2, "gamma")}${entry(3, "delta")}`;
}

async function count(measurement: string, where = ""): Promise<number> {
  const result = await influxd.query(`SELECT count(*) FROM "${measurement}" ${where}`, DATABASE);
  const row = result.results[0]?.series?.[0]?.values[0];
  return row === undefined ? 0 : Math.max(...(row.slice(1) as number[]));
}

async function lastRow(measurement: string, where = ""): Promise<Record<string, unknown>> {
  const result = await influxd.query(
    `SELECT * FROM "${measurement}" ${where} ORDER BY time DESC LIMIT 1`,
    DATABASE,
  );
  const series = result.results[0]?.series?.[0];
  const values = series?.values[0] ?? [];
  return Object.fromEntries((series?.columns ?? []).map((column, i) => [column, values[i]]));
}

async function scrape(): Promise<ScrapedMetric[]> {
  const response = await fetch(`http://127.0.0.1:${scrapePort}/metrics`);
  expect(response.status).toBe(200);
  return parsePrometheusText(await response.text());
}

describe.skipIf(skip)("platform polling, through `steward start`", () => {
  it("writes the 8 health measurements of the answering server, with its tags, and none of the failing ones", async () => {
    for (const measurement of HEALTH_MEASUREMENTS) {
      expect(await count(measurement, `WHERE "server_name" = 'alpha'`), measurement).toBeGreaterThan(0);
      expect(await count(measurement, `WHERE "server_name" != 'alpha'`), measurement).toBe(0);
    }
    const mem = await lastRow("mem", `WHERE "server_name" = 'alpha'`);
    expect(mem).toMatchObject({ host: "127.0.0.1", server_description: "alpha node", site: "eu" });
    expect(Object.keys(mem)).toEqual(expect.arrayContaining(["comitted", "allocated", "free"]));
    // App names come from the repository's app list, fetched beside the first rounds (a round
    // that ran before the list arrived has none); v1 joins them as "A","B".
    const named = /^"[^"]+"(,"[^"]+")*$/;
    const appsRow = () => lastRow("apps", `WHERE "server_name" = 'alpha'`);
    await until(async () => named.test(String((await appsRow()).loaded_docs_names)), 10_000, 100);
    const apps = await appsRow();
    expect(String(apps.loaded_docs_names)).toMatch(named);
    expect(typeof apps.loaded_docs_count).toBe("number");
    const started = await lastRow("sense_server", `WHERE "server_name" = 'alpha'`);
    expect(String(started.uptime)).toMatch(/^\d+ days, \d+h \d{2}m \d{2}s$/);
  });

  it("writes the three session measurements per virtual proxy with the server tags", async () => {
    for (const proxy of ["/", "/hdr"]) {
      const where = `WHERE "user_session_virtual_proxy" = '${proxy}' AND "server_name" = 'alpha' AND "site" = 'eu'`;
      await until(async () => (await count("user_session_summary", where)) > 0, 5000, 100);
      expect(await count("user_session_list", where)).toBeGreaterThan(0);
    }
    const summary = await lastRow("user_session_summary", `WHERE "server_name" = 'alpha'`);
    expect(summary).toMatchObject({ user_session_host: server(0).address });
    expect(typeof summary.session_count).toBe("number");
  });

  it("sends the server's own headers on health calls only, and the xrfkey pair on session calls", () => {
    const calls = server(0).calls;
    const health = calls.filter((call) => call.path === "/engine/healthcheck");
    const sessions = calls.filter((call) => call.path.endsWith("/session"));
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((call) => call.headers["x-team"] === "operations")).toBe(true);
    expect(new Set(sessions.map((call) => call.path))).toEqual(new Set(["/qps/session", "/qps/hdr/session"]));
    for (const call of sessions) {
      expect(call.headers["x-team"]).toBeUndefined();
      expect(call.query.Xrfkey).toBe(call.headers["x-qlik-xrfkey"]);
    }
  });

  it("publishes one value per health topic and the session answers on the broker", async () => {
    await until(() => topics.has("steward/127.0.0.1/usersession/hdr"), 5000, 50);
    for (const suffix of [
      "version",
      "mem/comitted",
      "cpu/total",
      "apps/calls",
      "cache/lookups",
      "saturated",
    ]) {
      expect(topics.has(`steward/127.0.0.1/${suffix}`), suffix).toBe(true);
    }
    expect(topics.get("steward/127.0.0.1/saturated")).toMatch(/^(true|false)$/);
    expect(Number.isFinite(Number(topics.get("steward/127.0.0.1/mem/free")))).toBe(true);
    expect(Array.isArray(JSON.parse(topics.get("steward/127.0.0.1/usersession/") ?? "null"))).toBe(true);
  });

  it("posts health and session metrics to the metric API of the configured account", () => {
    const posts = observability.requests.filter((request) => request.path === "/metric/v1");
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.every((request) => request.headers["api-key"] === "key-123")).toBe(true);
    const batches = posts.flatMap(
      (request) =>
        JSON.parse(request.body) as {
          common: { attributes: Record<string, string>; "interval.ms": number };
          metrics: { name: string; value: number }[];
        }[],
    );
    const health = batches.find((batch) => batch.metrics.some((metric) => metric.name === "qs_memCommited"));
    expect(health?.common.attributes).toMatchObject({ server_name: "alpha", site: "eu" });
    expect(health?.common["interval.ms"]).toBe(1000);
    const sessions = batches.find((batch) =>
      batch.metrics.some((metric) => metric.name === "qs_proxySessions"),
    );
    expect(sessions?.common.attributes).toMatchObject({
      server_name: "alpha",
      user_session_virtual_proxy: "/",
    });
  });

  it("serves the health and session gauges and the poll counters on /metrics", async () => {
    const metrics = await scrape();
    const labels = { host: "127.0.0.1", server_name: "alpha", server_description: "alpha node", site: "eu" };
    const free = sampleValue(metrics, "steward_mem_free", labels);
    expect(free).toBeGreaterThan(1024 * 1024);
    expect(Number.isInteger(free)).toBe(true);
    expect(
      sampleValue(metrics, "steward_user_session_total", {
        ...labels,
        user_session_virtual_proxy: "/hdr",
        user_session_host: server(0).address,
      }),
    ).toBeGreaterThanOrEqual(0);
    // Failing servers have no health series.
    const servers = new Set(
      metrics
        .find((metric) => metric.name === "steward_mem_free")
        ?.samples.map((sample) => sample.labels.server_name),
    );
    expect(servers).toEqual(new Set(["alpha"]));
    expect(sampleValue(metrics, "steward_health_polls_total", { outcome: "failed" })).toBeGreaterThan(0);
    expect(sampleValue(metrics, "steward_health_rounds_total", { outcome: "skipped" })).toBeGreaterThan(0);
  });

  it("logs each failing server with its reason and error type", () => {
    const output = steward.output();
    expect(output).toMatch(/polling failed[^\n]*server_name=beta[^\n]*HEALTH_API[^\n]*500/);
    expect(output).toMatch(/polling failed[^\n]*server_name=gamma[^\n]*(ECONNREFUSED|unreachable)/);
    expect(output).toMatch(/polling failed[^\n]*server_name=delta[^\n]*(did not answer|timed? ?out)/i);
  });

  it("stops on SIGTERM with exit status 0", async () => {
    steward.child.kill("SIGTERM");
    exitCode = (await steward.exited()).code;
    expect(exitCode).toBe(0);
  });
});
