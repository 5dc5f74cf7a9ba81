/**
 * The destinations of one agent part (a UDP pipeline, the health or session poller) behind the
 * EventDestinations interface: time-series points, broker messages, observability events and
 * observability metric batches, each present or absent as the configuration says (an absent
 * destination ignores what it is given). Every method resolves once its items are buffered or
 * published, so a slow destination is felt by the queue; a full buffer drops by policy after a
 * bounded wait, counted and reported. `stop()` flushes every destination within `stopTimeoutMs` (or
 * until `abandon()`, the shutdown's deadline) and rejects if any kept items unwritten.
 */

import type { DestinationStats } from "../destinations/index.ts";
import { createLogThrottle } from "../logging/index.ts";
import type {
  BrokerClient,
  Clock,
  Logger,
  ObservabilityAccount,
  ObservabilityEvent,
  ObservabilityEventBatchClient,
  ObservabilityMetricBatch,
  ObservabilityMetricBatchClient,
  Stoppable,
  TimeseriesClient,
} from "../ports.ts";
import type { BrokerMessage } from "../shared/broker-message.ts";
import type { Point } from "../shared/line-protocol.ts";
import type { EventDestinations } from "../udp/index.ts";
import type { AgentDestination, DestinationTuning } from "./batched-destination.ts";
import { startMessagesDestination } from "./messages-destination.ts";
import { obsPlatformDestinationName, startObsPlatformDestination } from "./obs-platform-destination.ts";
import { startPointsDestination } from "./points-destination.ts";

export interface EventDestinationsOptions {
  /** `timeseriesdbConfig.maxBatchSize`: points per write request. */
  maxBatchSize: number;
  /** Absent: points are ignored. */
  series?: TimeseriesClient | undefined;
  /** Absent: messages are ignored. */
  broker?: BrokerClient | undefined;
  /** Absent (or no accounts): events are ignored. */
  observability?:
    | { client: ObservabilityEventBatchClient; accounts: readonly ObservabilityAccount[] }
    | undefined;
  /** Absent (or no accounts): metric batches are ignored. */
  obsMetrics?:
    | { client: ObservabilityMetricBatchClient; accounts: readonly ObservabilityAccount[] }
    | undefined;
  clock: Clock;
  logger: Logger;
  /**
   * Told of every failed write request with the destination's name (`timeseriesdb`, `mqtt`,
   * `obs-platform:<account>`, `obs-platform-metrics:<account>`): the agent's error tracking.
   */
  onWriteError?: ((destination: string, error: unknown) => void) | undefined;
  /** ms after the first buffered item before a batch is written anyway (default 1000). */
  maxAgeMs?: number | undefined;
  /** Points pending before writePoints waits (default 10 × maxBatchSize). */
  maxBufferedPoints?: number | undefined;
  /** Events per POST (default 100). */
  maxEventsPerPost?: number | undefined;
  /** Events pending per account before writeEvents waits (default 10 × maxEventsPerPost). */
  maxBufferedEvents?: number | undefined;
  /** Longest wait for buffer space before items are dropped (default 2000 ms). */
  maxWaitMs?: number | undefined;
  /** Broker publishes in flight at once (default 10). */
  maxInFlightMessages?: number | undefined;
  /** First retry delay after an outage, doubled per failure (default 1000 ms, at most maxRetryDelayMs). */
  initialRetryDelayMs?: number | undefined;
  maxRetryDelayMs?: number | undefined;
  /** Longest flush on stop (default 5000 ms, within the process's 10 s shutdown budget). */
  stopTimeoutMs?: number | undefined;
}

export interface AgentEventDestinations extends EventDestinations, Stoppable {
  /** Resolves once the batches are buffered for every metric account (or dropped by policy). */
  writeMetrics(batches: readonly ObservabilityMetricBatch[]): Promise<void>;
  /**
   * Per destination: `timeseriesdb`, `mqtt`, `obs-platform:<account>`,
   * `obs-platform-metrics:<account>` (present ones only).
   */
  stats(): Record<string, DestinationStats>;
  /** Gives up on every destination at once (the shutdown's deadline); stop() then rejects for what is left. */
  abandon(): void;
}

const DEFAULT_EVENTS_PER_POST = 100;

export function createEventDestinations(options: EventDestinationsOptions): AgentEventDestinations {
  const { clock, logger } = options;
  const throttle = createLogThrottle();
  const tuning = (maxBatchSize: number, maxBuffered: number | undefined): DestinationTuning => ({
    maxBatchSize: Math.max(1, maxBatchSize),
    maxAgeMs: options.maxAgeMs ?? 1000,
    maxBuffered: maxBuffered ?? Math.max(1, maxBatchSize) * 10,
    maxWaitMs: options.maxWaitMs ?? 2000,
    initialRetryDelayMs: options.initialRetryDelayMs ?? 1000,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
    stopTimeoutMs: options.stopTimeoutMs ?? 5000,
  });
  const common = { clock, logger, throttle };
  const reportTo = (destination: string) =>
    options.onWriteError === undefined
      ? undefined
      : (error: unknown) => options.onWriteError?.(destination, error);

  const points =
    options.series === undefined
      ? undefined
      : startPointsDestination({
          series: options.series,
          tuning: tuning(options.maxBatchSize, options.maxBufferedPoints),
          onWriteError: reportTo("timeseriesdb"),
          ...common,
        });
  const messages =
    options.broker === undefined
      ? undefined
      : startMessagesDestination({
          broker: options.broker,
          maxInFlight: options.maxInFlightMessages ?? 10,
          stopTimeoutMs: options.stopTimeoutMs ?? 5000,
          onWriteError: reportTo("mqtt"),
          ...common,
        });
  const eventsTuning = tuning(options.maxEventsPerPost ?? DEFAULT_EVENTS_PER_POST, options.maxBufferedEvents);
  const perAccount = <T>(
    api: "events" | "metrics",
    post: ((items: readonly T[], account: ObservabilityAccount) => Promise<void>) | undefined,
    accounts: readonly ObservabilityAccount[],
  ) =>
    post === undefined
      ? []
      : uniqueAccounts(accounts).map((account) => {
          const name = obsPlatformDestinationName(api, account);
          return {
            name,
            destination: startObsPlatformDestination<T>({
              api,
              post,
              account,
              tuning: eventsTuning,
              onWriteError: reportTo(name),
              ...common,
            }),
          };
        });
  const eventClient = options.observability?.client;
  const events = perAccount<ObservabilityEvent>(
    "events",
    eventClient && ((items, account) => eventClient.postEvents(items, account)),
    options.observability?.accounts ?? [],
  );
  const metricClient = options.obsMetrics?.client;
  const metricBatches = perAccount<ObservabilityMetricBatch>(
    "metrics",
    metricClient && ((items, account) => metricClient.postMetrics(items, account)),
    options.obsMetrics?.accounts ?? [],
  );

  const destinations: {
    name: string;
    destination: Pick<AgentDestination<never>, "stats" | "stop" | "abandon">;
  }[] = [
    ...(points === undefined ? [] : [{ name: "timeseriesdb", destination: points }]),
    ...(messages === undefined ? [] : [{ name: "mqtt", destination: messages }]),
    ...events,
    ...metricBatches,
  ];
  let stopped: Promise<void> | undefined;

  return {
    async writePoints(batch: readonly Point[]) {
      await points?.write(batch);
    },
    async writeMessages(batch: readonly BrokerMessage[]) {
      await messages?.write(batch);
    },
    async writeEvents(batch: readonly ObservabilityEvent[]) {
      await Promise.all(events.map(({ destination }) => destination.write(batch)));
    },
    async writeMetrics(batches: readonly ObservabilityMetricBatch[]) {
      await Promise.all(metricBatches.map(({ destination }) => destination.write(batches)));
    },
    stats: () => Object.fromEntries(destinations.map(({ name, destination }) => [name, destination.stats()])),
    abandon() {
      for (const { destination } of destinations) destination.abandon();
    },
    stop() {
      stopped ??= Promise.allSettled(destinations.map(({ destination }) => destination.stop())).then(
        (results) => {
          const errors = results.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
          if (errors.length === 1) throw errors[0];
          if (errors.length > 1)
            throw new AggregateError(errors, "several agent destinations kept items unwritten");
        },
      );
      return stopped;
    },
  };
}

/** An account named twice in a destination list still gets each item once. */
function uniqueAccounts(accounts: readonly ObservabilityAccount[]): ObservabilityAccount[] {
  return accounts.filter(
    (account, index) => accounts.findIndex((other) => other.accountName === account.accountName) === index,
  );
}
