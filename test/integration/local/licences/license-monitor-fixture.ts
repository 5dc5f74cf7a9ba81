/**
 * The licence monitor as the local process runs it, for the integration tests: the real
 * platform client over mutual TLS to the simulated platform, the shared time-series client to a
 * real InfluxDB 1.x, the process's one broker connection, and a Prometheus registry. `runOnce`
 * starts the monitor (which runs at once), waits for that run to finish, and stops everything
 * (which flushes the points), so that the database and the call log can be read afterwards.
 */
import { createPromMetricsRegistry } from "../../../../core/adapters/prometheus/prom-metrics-registry.ts";
import { LICENCE_EXPIRY_KIND, type LicenceExpiryAlert } from "../../../../core/alerts/index.ts";
import { type Config, parseConfig } from "../../../../core/config/index.ts";
import type { ErrorCounts } from "../../../../core/monitoring/error-tracker.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { startAgentConnections } from "../../../../local/agent/agent-connections.ts";
import {
  type LicenseMonitorStatus,
  startLicenseMonitor,
} from "../../../../local/agent/licence-monitor/licence-monitor.ts";
import { brokerConnection } from "../../../../local/broker-connection.ts";
import type { TestPlatform } from "../../../fixtures/platform/test-platform.ts";
import { until } from "../../../helpers/eventually.ts";
import type { Influxd } from "../../../helpers/influxd.ts";
import { parsePrometheusText, type ScrapedMetric } from "../../../helpers/prometheus-text.ts";
import { type RecordingLogger, recordingLogger } from "../../../helpers/recording-logger.ts";

export interface LicenceTestTargets {
  readonly platform: TestPlatform;
  readonly influxd: Influxd;
  readonly database: string;
  /** The broker's port, when the run publishes. */
  readonly brokerPort?: number | undefined;
}

/**
 * A config with the licence monitor on, pointed at the targets; `licenseMonitor` merges over the
 * defaults here, `service` adds other sections.
 */
export function licenceConfig(
  targets: LicenceTestTargets,
  licenseMonitor: Record<string, unknown> = {},
  service: Record<string, unknown> = {},
): Config {
  const { platform, influxd, database, brokerPort } = targets;
  const server = platform.servers[0];
  const parsed = parseConfig({
    Service: {
      cert: platform.certificates,
      platform: {
        host: "127.0.0.1",
        repositoryPort: server?.port,
        rejectUnauthorized: true,
        timeoutMs: 3000,
      },
      timeseriesdbConfig: {
        enable: true,
        host: "127.0.0.1",
        port: influxd.port,
        version: 1,
        v1Config: { dbName: database },
      },
      ...(brokerPort === undefined
        ? {}
        : { mqttConfig: { enable: true, brokerHost: "127.0.0.1", brokerPort, baseTopic: "steward/" } }),
      licenseMonitor: {
        enable: true,
        frequency: "every 1 hours",
        timeseriesdb: { tag: { static: [{ name: "qs_env", value: "lab" }] } },
        version: { port: server?.port },
        ...licenseMonitor,
      },
      ...service,
    },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

export interface LicenceRun {
  readonly status: LicenseMonitorStatus;
  readonly logger: RecordingLogger;
  /** The registry's exposition after the run, as the scrape endpoint serves it. */
  readonly metrics: ScrapedMetric[];
  readonly metricsText: string;
  /** The expiry alerts the run handed to subscribers. */
  readonly alerts: LicenceExpiryAlert[];
  /** What the error tracker counted during the run. */
  readonly errorCounts: ErrorCounts;
}

export async function runOnce(config: Config): Promise<LicenceRun> {
  const logger = recordingLogger();
  const registry = createPromMetricsRegistry();
  const broker = brokerConnection(config, logger, process.cwd());
  const brokerPart = await broker?.part.start();
  const connections = await startAgentConnections({
    config,
    logger,
    metrics: registry,
    cwd: process.cwd(),
    clock: systemClock,
    broker: broker?.client,
  });
  const alerts: LicenceExpiryAlert[] = [];
  const monitor = await startLicenseMonitor({
    config,
    logger,
    clock: systemClock,
    cwd: process.cwd(),
    metrics: registry,
    connections,
    // The alerts part's dispatch, as the monitor sees it: what it was handed, and no destination.
    alerts: async (alert) => {
      if (alert.kind === LICENCE_EXPIRY_KIND) alerts.push(alert);
      return {};
    },
  });
  const releasing = config.licenseMonitor.licenseRelease.enable;
  await until(
    () => monitor.status().runs >= 1 && (!releasing || monitor.status().release !== undefined),
    10_000,
  );
  const metricsText = await registry.metrics();
  const status = monitor.status();
  const errorCounts = connections.errors.counts();
  await monitor.stop();
  await connections.stop();
  await brokerPart?.stop();
  return { status, logger, metrics: parsePrometheusText(metricsText), metricsText, alerts, errorCounts };
}

/** `SHOW FIELD KEYS` of a measurement: field → type. */
export async function fieldTypes(influxd: Influxd, database: string, measurement: string) {
  const answer = await influxd.query(`SHOW FIELD KEYS FROM "${measurement}"`, database);
  const values = answer.results[0]?.series?.[0]?.values ?? [];
  return Object.fromEntries(values.map(([name, type]) => [String(name), String(type)]));
}

/** `SHOW TAG KEYS` of a measurement, sorted. */
export async function tagKeys(influxd: Influxd, database: string, measurement: string) {
  const answer = await influxd.query(`SHOW TAG KEYS FROM "${measurement}"`, database);
  return (answer.results[0]?.series?.[0]?.values ?? []).map(([name]) => String(name)).sort();
}

/** Every row of a measurement as column → value. */
export async function rows(influxd: Influxd, database: string, measurement: string) {
  const answer = await influxd.query(`SELECT * FROM "${measurement}"`, database);
  const series = answer.results[0]?.series?.[0];
  if (series === undefined) return [];
  return series.values.map((row) => Object.fromEntries(series.columns.map((c, i) => [c, row[i]])));
}
