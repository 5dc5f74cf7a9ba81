/**
 * What the agent's parts share to reach their destinations, opened once: one time-series writer
 * (when `timeseriesdbConfig.enable`, the master switch of everything the agent writes there), one
 * broker connection (when `mqttConfig.enable` and some part publishes) and the error tracker
 * (when `errorTracking.enable`; CONTRACT §7) that every part reports its failures to. Each part
 * keeps its own batching sinks on top and adds their stats here, so that
 * `steward_destination_write_errors_total{destination}` is declared once for the whole agent
 * (and what they refused as data counts in `steward_destination_refused_total`);
 * their failed writes go to `recordWriteError` (and to the status page's last errors). The error points have a sink of their own that
 * reports to nobody: a failed write of error points is never itself an error point (quirk 14).
 * Started before the parts and stopped after them, so the connection outlives every flush.
 */
import { createTimeseriesWriter } from "../../core/adapters/influx/create-timeseries-writer.ts";
import { createMqttPublisher, type MqttPublisher } from "../../core/adapters/mqtt.ts";
import { mqttPublisherOptions } from "../../core/adapters/mqtt-options.ts";
import { createEventSinks } from "../../core/agent-sinks/create-event-sinks.ts";
import {
  type DestinationStatsSource,
  declareDestinationMetrics,
} from "../../core/agent-sinks/destination-stats.ts";
import type { Config } from "../../core/config/index.ts";
import {
  type ErrorTracker,
  nullErrorTracker,
  startErrorTracker,
} from "../../core/monitoring/error-tracker.ts";
import { addRefusedSource, refusedCounts } from "../../core/monitoring/refused-metric.ts";
import type { StatusBoard } from "../../core/monitoring/status-board.ts";
import { writeErrorType } from "../../core/monitoring/write-error-type.ts";
import type {
  AppNameCache,
  Clock,
  Logger,
  MetricsRegistry,
  Service,
  TimeseriesWriter,
} from "../../core/ports.ts";
import { systemClock } from "../../core/system-clock.ts";

export interface AgentOutputs extends Service {
  readonly series: TimeseriesWriter | undefined;
  readonly publisher: MqttPublisher | undefined;
  /** Adds a part's destination stats to the write-error metric. */
  addStats(source: DestinationStatsSource): void;
  /** The error tracker (a null one when `errorTracking.enable` is false). */
  readonly errors: ErrorTracker;
  /** Records a failed write to a destination of a part's sinks (createEventSinks' onWriteError). */
  recordWriteError(destination: string, error: unknown): void;
}

/** What every long-running agent part is started with (local/wiring.ts). */
export interface AgentPartDeps {
  config: Config;
  logger: Logger;
  clock: Clock;
  /** Relative paths in the config (certificates, keys under ./data/) resolve from here. */
  cwd: string;
  /** Where the part declares the metrics the scrape endpoint publishes. */
  metrics: MetricsRegistry;
  /** App id → name, filled by the app-name poller (empty until its first fetch). */
  appNames: AppNameCache;
  /** The time-series writer and broker connection the agent's parts share. */
  outputs: Pick<AgentOutputs, "series" | "publisher" | "addStats" | "errors" | "recordWriteError">;
}

/** How long start-up waits for the broker before it goes on without it. */
const BROKER_CONNECT_WAIT_MS = 3000;

/** True when some part of the agent publishes to the broker. */
function agentPublishes(config: Config): boolean {
  if (!config.mqttConfig.enable) return false;
  const logSources = Object.values(config.logEvents.source).some((source) => source.enable);
  return (
    (config.userEvents.enable && config.userEvents.sendToMQTT.enable) ||
    (logSources && config.logEvents.sendToMQTT.enable) ||
    config.serversToMonitor.servers.length > 0 ||
    config.userSessions.enableSessionExtract
  );
}

/**
 * Relative `mqttConfig.tls` file paths resolve from `cwd`; an unreadable one throws
 * BrokerTlsFileError before anything connects.
 */
export async function startAgentOutputs(
  config: Config,
  logger: Logger,
  metrics: MetricsRegistry,
  cwd: string,
  clock: Clock = systemClock,
  status?: StatusBoard,
): Promise<AgentOutputs> {
  // Read first: the TLS files are what can fail here, and then nothing has been opened for nothing.
  const brokerOptions = agentPublishes(config)
    ? mqttPublisherOptions(config.mqttConfig, { logger, cwd })
    : undefined;
  const series = config.timeseriesdbConfig.enable
    ? createTimeseriesWriter(config.timeseriesdbConfig)
    : undefined;
  const publisher = brokerOptions ? createMqttPublisher(brokerOptions) : undefined;
  // The first events and polls must not be refused while the connection is still being made.
  if (publisher !== undefined && !(await publisher.whenConnected(BROKER_CONNECT_WAIT_MS))) {
    logger.warn(
      "The MQTT broker is not reachable yet; broker messages are dropped (and counted) until it is",
      {
        broker: `${config.mqttConfig.tls.enable ? "mqtts" : "mqtt"}://${config.mqttConfig.brokerHost}:${config.mqttConfig.brokerPort}`,
      },
    );
  }
  const sources: DestinationStatsSource[] = [];
  declareDestinationMetrics(metrics, sources);
  addRefusedSource(metrics, () => sources.flatMap((source) => refusedCounts(source())));
  const tracking = config.errorTracking;
  // No onWriteError here: the error points' own failures are never tracked (quirk 14).
  const errorSinks =
    tracking.enable && tracking.timeseriesdb.enable && series !== undefined
      ? createEventSinks({
          maxBatchSize: config.timeseriesdbConfig.maxBatchSize,
          series,
          clock,
          logger: logger.child("error-tracking"),
          // Best effort at shutdown: a database that is down must not eat the 10 s budget.
          stopTimeoutMs: 1000,
        })
      : undefined;
  if (errorSinks !== undefined) sources.push(() => errorSinks.stats());
  const errors = tracking.enable
    ? startErrorTracker({
        logSummary: tracking.logSummary.enable,
        measurementName: tracking.timeseriesdb.measurementName,
        onPoint:
          errorSinks === undefined
            ? undefined
            : (point) => {
                // Buffered (or dropped by the sink's policy, counted): never awaited by the failing part.
                void errorSinks.writePoints([point]).catch(() => undefined);
              },
        clock,
        logger: logger.child("error-tracking"),
      })
    : nullErrorTracker;
  const version = config.timeseriesdbConfig.version;
  return {
    series,
    publisher,
    errors,
    recordWriteError: (destination, error) => {
      status?.noteError(destination, error);
      errors.record(writeErrorType(destination, version), "", error);
    },
    addStats: (source) => sources.push(source),
    stop: async () => {
      await errors.stop();
      await errorSinks?.stop().catch((error: unknown) => {
        logger.warn("error points could not all be written before shutdown", {
          error: error instanceof Error ? error.message : String(error),
        });
      });
      await publisher?.close();
    },
  };
}
