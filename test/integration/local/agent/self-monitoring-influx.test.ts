/**
 * The uptime monitor's `steward_memory_usage` points and the error tracker's points against a
 * real InfluxDB 1.x on loopback, the uptime metrics against a capture server standing in for the
 * observability platform, and the error tracker while the database is down (a failed write of
 * error points is never itself recorded, so an outage cannot feed on itself).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Config, parseConfig } from "../../../../core/config/index.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { SERVICE_VERSION } from "../../../../core/version.ts";
import { startAgentConnections } from "../../../../local/agent/agent-connections.ts";
import { startUptimeMonitor } from "../../../../local/agent/uptime-monitor.ts";
import { type CaptureServer, startCaptureServer } from "../../../helpers/capture-server.ts";
import { until } from "../../../helpers/eventually.ts";
import { freePort } from "../../../helpers/free-port.ts";
import { type Influxd, skipWithoutInfluxd, startInfluxd } from "../../../helpers/influxd.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

const skip = skipWithoutInfluxd();
let influxd: Influxd;
let capture: CaptureServer;

beforeAll(async () => {
  if (skip) return;
  [influxd, capture] = await Promise.all([startInfluxd(), startCaptureServer()]);
}, 30_000);
afterAll(async () => {
  await Promise.all([influxd?.close(), capture?.stop()]);
});

function config(port: number, service: Record<string, unknown>): Config {
  const parsed = parseConfig({
    Service: {
      timeseriesdbConfig: {
        enable: true,
        host: "127.0.0.1",
        port,
        version: 1,
        v1Config: { dbName: "steward_self", retentionPolicy: { name: "rp", duration: "1d" } },
      },
      ...service,
    },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

async function rows(measurement: string) {
  const answer = await influxd.query(`SELECT * FROM "${measurement}"`, "steward_self");
  const series = answer.results[0]?.series?.[0];
  if (series === undefined) return [];
  return series.values.map((row) => Object.fromEntries(series.columns.map((c, i) => [c, row[i]])));
}

describe.skipIf(skip)("self-monitoring with InfluxDB 1.x", () => {
  it("writes steward_memory_usage at each uptime occurrence and posts the qs_service* metrics", async () => {
    const cfg = config(influxd.port, {
      uptimeMonitor: {
        enable: true,
        frequency: "every 1 second",
        logLevel: "info",
        storeInTimeseriesdb: { serviceMemoryUsage: true, instanceTag: "TEST" },
        storeObsPlatform: {
          enable: true,
          destinationAccount: ["acct"],
          attribute: { static: [{ name: "env", value: "test" }] },
        },
      },
      obsPlatform: { enable: true, metric: { url: `${capture.url}/metric/v1` } },
      thirdPartyToolsCredentials: {
        obsPlatform: [{ accountName: "acct", insertApiKey: "k", accountId: "1" }],
      },
    });
    const logger = recordingLogger();
    const connections = await startAgentConnections({
      config: cfg,
      logger,
      metrics: createMemoryMetricsRegistry(),
      cwd: process.cwd(),
      clock: systemClock,
    });
    const monitor = startUptimeMonitor({ config: cfg, logger, clock: systemClock, connections });
    await until(() => monitor.iterations() >= 2, 5000);
    await monitor.stop();
    await connections.stop();

    const points = await rows("steward_memory_usage");
    expect(points.length).toBeGreaterThanOrEqual(2);
    expect(points[0]).toMatchObject({ instance: "TEST", version: SERVICE_VERSION });
    for (const field of ["heap_used", "heap_total", "external", "process_memory"]) {
      expect(typeof points[0]?.[field]).toBe("number");
    }
    expect(logger.at("info").some((e) => /^Iteration # 1, Uptime: 0 months, /.test(e.message))).toBe(true);

    const posted = capture.requests.filter((r) => r.path === "/metric/v1");
    expect(posted.length).toBeGreaterThanOrEqual(1);
    const [batch] = JSON.parse(posted[0]?.body ?? "[]");
    expect(batch.common.attributes).toEqual({ env: "test", serviceVersion: SERVICE_VERSION });
    expect(batch.common["interval.ms"]).toBe(1000);
    expect(batch.metrics.map((m: { name: string }) => m.name)).toEqual([
      "qs_serviceHeapUsed",
      "qs_serviceHeapTotal",
      "qs_serviceExternalMem",
      "qs_serviceProcessMem",
      "qs_serviceUptimeMillisec",
    ]);
  });

  it("does not post uptime metrics while obsPlatform.enable is off, even with storeObsPlatform on", async () => {
    const posts: string[] = [];
    const recordingFetch: typeof fetch = async (input) => {
      posts.push(String(input));
      return new Response("{}", { status: 202 });
    };
    const cfg = config(influxd.port, {
      uptimeMonitor: {
        enable: true,
        frequency: "every 1 second",
        storeObsPlatform: { enable: true, destinationAccount: ["acct"] },
      },
      thirdPartyToolsCredentials: {
        obsPlatform: [{ accountName: "acct", insertApiKey: "k", accountId: "1" }],
      },
    });
    const logger = recordingLogger();
    const connections = await startAgentConnections({
      config: cfg,
      logger,
      metrics: createMemoryMetricsRegistry(),
      cwd: process.cwd(),
      clock: systemClock,
    });
    const monitor = startUptimeMonitor({
      config: cfg,
      logger,
      clock: systemClock,
      connections,
      fetch: recordingFetch,
    });
    await until(() => monitor.iterations() >= 1, 3000);
    await monitor.stop();
    await connections.stop();
    expect(posts).toEqual([]);
  });

  it("writes one point per tracked error to errorTracking.timeseriesdb.measurementName", async () => {
    const cfg = config(influxd.port, {
      errorTracking: { enable: true, timeseriesdb: { enable: true, measurementName: "steward_errors_test" } },
    });
    const connections = await startAgentConnections({
      config: cfg,
      logger: recordingLogger(),
      metrics: createMemoryMetricsRegistry(),
      cwd: process.cwd(),
    });
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    connections.errors.record("HEALTH_API", "sense1", new Error("poll failed", { cause: refused }));
    connections.errors.record("PROXY_API", "sense2", Object.assign(new Error("HTTP 503"), { status: 503 }));
    await connections.stop();

    const points = await rows("steward_errors_test");
    expect(points).toHaveLength(2);
    expect(points[0]).toMatchObject({
      error_type: "HEALTH_API",
      server_name: "sense1",
      error_count: 1,
      error_category: "connection_refused",
      error_code: "ECONNREFUSED",
    });
    expect(points[1]).toMatchObject({
      error_type: "PROXY_API",
      http_status: 503,
      error_category: "http_5xx",
    });
  });

  it("writes no error points while errorTracking.timeseriesdb.enable is off, yet counts", async () => {
    const cfg = config(influxd.port, {
      errorTracking: { enable: true, timeseriesdb: { enable: false, measurementName: "steward_errors_off" } },
    });
    const connections = await startAgentConnections({
      config: cfg,
      logger: recordingLogger(),
      metrics: createMemoryMetricsRegistry(),
      cwd: process.cwd(),
    });
    connections.errors.record("HEALTH_API", "sense1");
    expect(connections.errors.counts().total).toBe(1);
    await connections.stop();
    expect(await rows("steward_errors_off")).toEqual([]);
  });
});

describe("error tracking while the time-series DB is down", () => {
  it("records a part's failed writes, but never the failed writes of its own error points", async () => {
    const deadPort = await freePort();
    const cfg = config(deadPort, { errorTracking: { enable: true } });
    const logger = recordingLogger();
    const connections = await startAgentConnections({
      config: cfg,
      logger,
      metrics: createMemoryMetricsRegistry(),
      cwd: process.cwd(),
    });

    // A part's write failure is recorded (and becomes an error point, whose write fails too).
    connections.recordWriteError("timeseriesdb", new Error("POST /write failed: no answer"));
    // Let the error points' own destination fail and retry a few times (1 s, then 2 s backoff).
    await new Promise((resolve) => setTimeout(resolve, 3500));
    const failedOwnWrites = logger.entries.filter(
      (e) => e.scope === "error-tracking" && e.message.startsWith("writing points failed"),
    );
    expect(failedOwnWrites.length).toBeGreaterThanOrEqual(2);
    expect(connections.errors.counts().types).toEqual({
      INFLUXDB_V1_WRITE: { total: 1, servers: { "": 1 } },
    });
    await connections.stop();
  }, 15_000);
});
