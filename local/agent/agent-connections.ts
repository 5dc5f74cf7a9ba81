/**
 * What the agent's parts share to reach their destinations, opened once: one time-series client
 * (when `timeseriesdbConfig.enable`, the master switch of everything the agent writes there), the
 * process's broker connection (local/broker-connection.ts, when `mqttConfig.enable` and some part
 * publishes: the REST API publishes through the same one) and the error tracker
 * (when `errorTracking.enable`) that every part reports its failures to. Each part
 * keeps its own batching destinations on top and adds their stats here, so that
 * `steward_destination_write_errors_total{destination}` is declared once for the whole agent
 * (and what they refused as data counts in `steward_destination_refused_total`);
 * their failed writes go to `recordWriteError` (and to the status page's last errors). The error
 * points have a destination of their own that reports to nobody: a failed write of error points is never
 * itself an error point. The time-series client makes sure its database exists before the first
 * write of any part (database-ensuring-series.ts), so every part, the interval counters too, finds
 * it. Each part hands its writers to `stopWithinBudget` (periodic writers to `addIntervalWriter`,
 * which also shows them on the status page and in the destination metrics as
 * `<name>.timeseriesdb`), so that a shutdown gives up on them at the budget's `pointWriters` time
 * (local/point-writers-at-shutdown.ts).
 * Started before the parts and stopped after them, so the time-series client outlives every flush;
 * the broker connection is started before them and stopped after them.
 */
import { createTimeseriesClient } from "../../core/adapters/influx/create-timeseries-client.ts";
import type { MqttBrokerClient } from "../../core/adapters/mqtt.ts";
import { createEventDestinations } from "../../core/agent-destinations/index.ts";
import type { Config } from "../../core/config/index.ts";
import { ensuringDatabase } from "../../core/destinations/database-ensuring-series.ts";
import {
  type DestinationStatsSource,
  declareDestinationMetrics,
} from "../../core/destinations/destination-stats.ts";
import {
  type PeriodicWriter,
  periodicWriterDestinationStats,
} from "../../core/destinations/periodic-writer.ts";
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
  Stoppable,
  TimeseriesClient,
} from "../../core/ports.ts";
import { systemClock } from "../../core/system-clock.ts";
import { type AbandonableWriter, stopPointWriterWithinBudget } from "../point-writers-at-shutdown.ts";
import type { ShutdownSchedule } from "../shutdown-budget.ts";

export interface AgentConnections extends Stoppable {
  readonly series: TimeseriesClient | undefined;
  readonly broker: MqttBrokerClient | undefined;
  /** Adds a part's destination stats to the write-error metric. */
  addStats(source: DestinationStatsSource): void;
  /** The error tracker (a null one when `errorTracking.enable` is false). */
  readonly errors: ErrorTracker;
  /** Records a failed write to a destination of a part's destinations (createEventDestinations' onWriteError). */
  recordWriteError(destination: string, error: unknown): void;
  /** A part's writer as it is to be stopped: given up at the shutdown budget's `pointWriters` time. */
  stopWithinBudget(part: string, writer: AbandonableWriter): Stoppable;
  /**
   * A periodic writer of interval counters, shown as the destination `<name>.timeseriesdb` (status
   * page, destination metrics) and stopped as stopWithinBudget says.
   */
  addIntervalWriter(name: string, writer: PeriodicWriter): Stoppable;
}

/**
 * What a part that writes through the shared connections needs of the agent (agent-part.ts gives the
 * running parts more; tests give these).
 */
export interface WritingPartDeps {
  config: Config;
  logger: Logger;
  clock: Clock;
  /** Relative paths in the config (certificates, keys under ./data/) resolve from here. */
  cwd: string;
  /** Where the part declares the metrics the scrape endpoint publishes. */
  metrics: MetricsRegistry;
  /** App id → name, filled by the app-name poller (empty until its first fetch). */
  appNames: AppNameCache;
  /** The time-series client and broker connection the agent's parts share. */
  connections: Pick<
    AgentConnections,
    | "series"
    | "broker"
    | "addStats"
    | "errors"
    | "recordWriteError"
    | "stopWithinBudget"
    | "addIntervalWriter"
  >;
}

export interface AgentConnectionsOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly metrics: MetricsRegistry;
  /** Where relative TLS paths of the time-series database start. */
  readonly cwd: string;
  /** The system clock by default. */
  readonly clock?: Clock | undefined;
  readonly status?: StatusBoard | undefined;
  /**
   * The process's broker connection (local/broker-connection.ts) when the agent publishes; these
   * connections hand it to the parts but neither open nor close it.
   */
  readonly broker?: MqttBrokerClient | undefined;
  /**
   * The schedule whose `pointWriters` time gives up on the parts' writers (absent: only their own
   * stop timeouts bound them).
   */
  readonly shutdown?: ShutdownSchedule | undefined;
}

export async function startAgentConnections(options: AgentConnectionsOptions): Promise<AgentConnections> {
  const { config, logger, metrics, cwd, status, broker, shutdown } = options;
  const clock = options.clock ?? systemClock;
  const series = config.timeseriesdbConfig.enable
    ? ensuringDatabase(createTimeseriesClient(config.timeseriesdbConfig, { cwd }), {
        logger: logger.child("timeseriesdb"),
      })
    : undefined;
  const stopWithinBudget = (part: string, writer: AbandonableWriter) =>
    stopPointWriterWithinBudget(writer, { shutdown, part, logger });
  const sources: DestinationStatsSource[] = [];
  declareDestinationMetrics(metrics, sources);
  addRefusedSource(metrics, () => sources.flatMap((source) => refusedCounts(source())));
  const tracking = config.errorTracking;
  // No onWriteError here: a failed write of error points is never itself recorded as an error
  // point, so a database outage cannot feed on itself.
  const errorDestinations =
    tracking.enable && tracking.timeseriesdb.enable && series !== undefined
      ? createEventDestinations({
          maxBatchSize: config.timeseriesdbConfig.maxBatchSize,
          series,
          clock,
          logger: logger.child("error-tracking"),
          // Best effort at shutdown: a database that is down must not eat the 10 s budget.
          stopTimeoutMs: 1000,
        })
      : undefined;
  if (errorDestinations !== undefined) sources.push(() => errorDestinations.stats());
  const errorDestinationsAtShutdown =
    errorDestinations && stopWithinBudget("error-tracking", errorDestinations);
  const errors = tracking.enable
    ? startErrorTracker({
        logSummary: tracking.logSummary.enable,
        measurementName: tracking.timeseriesdb.measurementName,
        version: config.timeseriesdbConfig.version,
        onPoint:
          errorDestinations === undefined
            ? undefined
            : (point) => {
                // Buffered (or dropped by the destination's policy, counted): never awaited by the failing part.
                void errorDestinations.writePoints([point]).catch(() => undefined);
              },
        clock,
        logger: logger.child("error-tracking"),
      })
    : nullErrorTracker;
  const version = config.timeseriesdbConfig.version;
  return {
    series,
    broker,
    errors,
    recordWriteError: (destination, error) => {
      status?.noteError(destination, error);
      errors.record(writeErrorType(destination, version), "", error);
    },
    addStats: (source) => sources.push(source),
    stopWithinBudget,
    addIntervalWriter(name, writer) {
      const destination = `${name}.timeseriesdb`;
      const stats = () => periodicWriterDestinationStats(writer.stats());
      sources.push(() => ({ [destination]: stats() }));
      status?.set("destinations", destination, stats);
      return stopWithinBudget(name, writer);
    },
    stop: async () => {
      await errors.stop();
      await errorDestinationsAtShutdown?.stop().catch((error: unknown) => {
        logger.warn("error points could not all be written before shutdown", {
          error: error instanceof Error ? error.message : String(error),
        });
      });
    },
  };
}
