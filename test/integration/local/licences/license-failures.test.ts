/**
 * The licence monitor when the platform misbehaves, against the simulated platform over mutual
 * TLS and Debian's influxd: a repository that answers 500 fails the licence readings (each logged
 * at ERROR, error-tracked and named on the status page) while the version, read from another
 * endpoint, still goes out; a run that fails after a good one keeps the good readings on the
 * gauges and the page; and a repository that never answers does not hold up the stop, nor are the
 * calls the stop gives up logged as errors.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Config } from "../../../../core/config/index.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { startAgentConnections } from "../../../../local/agent/agent-connections.ts";
import { startLicenseMonitor } from "../../../../local/agent/licence-monitor/licence-monitor.ts";
import { startTestPlatform, type TestPlatform } from "../../../fixtures/platform/test-platform.ts";
import { until } from "../../../helpers/eventually.ts";
import { type Influxd, skipWithoutInfluxd, startInfluxd } from "../../../helpers/influxd.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { licenceConfig, rows, runOnce } from "./license-monitor-fixture.ts";

const skip = skipWithoutInfluxd();

let influxd: Influxd;
let platform: TestPlatform;

beforeAll(async () => {
  if (skip) return;
  [influxd, platform] = await Promise.all([startInfluxd(), startTestPlatform()]);
}, 60_000);

beforeEach(() => {
  if (!skip) platform.reset();
});

afterAll(async () => {
  await Promise.all([influxd?.close(), platform?.stop()]);
});

/** The licence monitor on its own connections, with an in-memory registry to read its gauges from. */
async function startMonitor(config: Config) {
  const logger = recordingLogger();
  const metrics = createMemoryMetricsRegistry();
  const connections = await startAgentConnections({
    config,
    logger,
    metrics,
    cwd: process.cwd(),
    clock: systemClock,
  });
  const monitor = await startLicenseMonitor({
    config,
    logger,
    clock: systemClock,
    cwd: process.cwd(),
    metrics,
    connections,
  });
  return { logger, metrics, connections, monitor };
}

describe.skipIf(skip)("the licence monitor when the platform misbehaves", () => {
  it("logs, tracks and shows each failed reading, and still writes the one that worked", async () => {
    platform.repository.fault = "status500";

    const run = await runOnce(
      licenceConfig(
        { platform, influxd, database: "licence_failures" },
        { licenseRelease: { enable: true } },
        { errorTracking: { enable: true } },
      ),
    );

    expect(Object.keys(run.status.errors).sort()).toEqual(["accessLicences", "serverLicence"]);
    expect(run.status.errors.serverLicence).toContain("HTTP 500");
    expect(run.logger.at("error").map((entry) => entry.message)).toEqual([
      "the access licence overview could not be read",
      "the server licence could not be read",
    ]);
    expect(run.status.release?.unreadTypes.map((unread) => unread.type)).toEqual([
      "professional",
      "analyzer",
    ]);
    expect(run.logger.at("warn").map((entry) => entry.message)).toEqual([
      "no professional licence was released: the list of licences could not be read",
      "no analyzer licence was released: the list of licences could not be read",
    ]);
    expect(await rows(influxd, "licence_failures", "qlik_sense_version")).toHaveLength(1);
    expect(await rows(influxd, "licence_failures", "qlik_sense_server_license")).toEqual([]);
    const tracked = await rows(influxd, "licence_failures", "butler_sos_errors");
    // One point per error, also for errors of one type in the same millisecond.
    expect(run.errorCounts.types.LICENSE_API).toEqual({ total: 4, servers: { "127.0.0.1": 4 } });
    await until(
      async () => (await rows(influxd, "licence_failures", "butler_sos_errors")).length === 4,
      5000,
    );
    expect(tracked[0]).toMatchObject({
      error_type: "LICENSE_API",
      server_name: "127.0.0.1",
      http_status: 500,
    });
    // No gauge shows a value that was not read.
    expect(run.metricsText).not.toMatch(/^steward_license_server_days_until_expiry /m);
  });

  it("keeps the last good readings on the gauges and the page when a later run fails, naming the error", async () => {
    const config = licenceConfig({ platform, influxd, database: "licence_later_failure" });
    config.licenseMonitor.frequency = "every 1 seconds";
    const { metrics, connections, monitor } = await startMonitor(config);
    try {
      await until(() => monitor.status().runs >= 1, 5000);
      const good = monitor.status();
      platform.repository.fault = "status500";
      await until(() => monitor.status().errors.serverLicence !== undefined, 5000);

      const failed = monitor.status();
      expect(failed.errors.serverLicence).toContain("HTTP 500");
      expect(failed.serverLicence).toEqual(good.serverLicence);
      expect(failed.accessLicences).toEqual(good.accessLicences);
      const days = metrics
        .scrape()
        .find((metric) => metric.name === "steward_license_server_days_until_expiry");
      expect(days?.samples).toEqual([{ labels: {}, value: good.serverLicence?.daysUntilExpiry }]);
    } finally {
      await monitor.stop();
      await connections.stop();
    }
  });

  it("stops within a second while the repository never answers, logging no error for the calls it gives up", async () => {
    platform.repository.fault = "hang";
    const config = licenceConfig(
      { platform, influxd, database: "licence_hang" },
      { version: { enable: false } },
    );
    const { logger, connections, monitor } = await startMonitor(config);
    await until(() => platform.repository.calls.length >= 1, 5000);

    const started = Date.now();
    await monitor.stop();
    const stopMs = Date.now() - started;
    await connections.stop();

    expect(stopMs).toBeLessThan(1000);
    // The run given up is not a finished one, and giving up its calls because Steward stops is not
    // the platform failing: nothing at ERROR.
    expect(monitor.status()).toMatchObject({ runs: 0, errors: {} });
    expect(logger.at("error").map((entry) => entry.message)).toEqual([]);
  });
});
