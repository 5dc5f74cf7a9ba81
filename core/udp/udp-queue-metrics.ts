/**
 * What a UDP queue's counters become, in the two places they are read:
 *
 * - the time-series DB: one point per write interval in `queueMetrics.timeseriesdb.measurementName`
 *   with the field names Butler SOS writes, tags `queue_type`, `host` (this machine's host name,
 *   where Butler SOS wrote an empty one) and the configured tags. Counters are deltas since the
 *   last successful write: `take` computes them against a baseline that only `written()` moves, so
 *   an unwritten interval is carried into the next one. `messages_processed` counts every datagram
 *   the processor finished, whatever its outcome (received = queued + dropped_total; queued =
 *   processed + failed + in flight), and the fields Butler SOS lacks for our extra drop reasons and
 *   outcomes are appended: `messages_dropped_source` (also in `messages_dropped_total`),
 *   `messages_malformed`, `messages_unknown_marker`, `messages_dropped_by_rule`, plus
 *   `rate_limit_current` (admitted per minute, rounded). `messages_dropped_kernel` counts what the
 *   operating system dropped before Steward could receive it (kernel-drops.ts); it is not part of
 *   `messages_received` nor of `messages_dropped_total`, and the field is left out, never 0, while
 *   the system reports no such count. Every count here is typed as queue-metrics-point.ts says.
 * - the scrape endpoint: `steward_udp_messages_total{queue,outcome}` (cumulative, never reset)
 *   and `steward_udp_queue_size{queue}`, read from the queues at each scrape; the outcome
 *   `dropped_kernel` only where the system reports it (no label without a value), and on a
 *   platform that keeps no such count the metric's help says it is not available there.
 */
import type { NameValue, TimeseriesdbVersion } from "../config/index.ts";
import { queueMetricsPointMapper } from "../destinations/queue-metrics-point.ts";
import type { MetricSample, MetricsRegistry } from "../ports.ts";
import type { PeriodicPoints } from "../shared/periodic-points.ts";
import type { KernelDropCount } from "./kernel-drops.ts";
import type { UdpQueue } from "./udp-queue.ts";
import { type UdpQueueCounters, zeroUdpQueueCounters } from "./udp-queue-counters.ts";

export interface UdpQueueMetricsPointsOptions {
  /** `queueMetrics.timeseriesdb` of the socket's `udpServerConfig`. */
  config: { readonly measurementName: string; readonly tags: readonly NameValue[] };
  /** The `host` tag: the wiring passes `os.hostname()`. */
  host: string;
  /** `timeseriesdbConfig.version`: decides the fields' types (queue-metrics-point.ts). */
  version: TimeseriesdbVersion;
  /** What the operating system dropped for the queue's socket since it started. */
  kernelDrops?: () => KernelDropCount;
}

/** The queue's metrics point, as deltas since the last successful write. */
export function udpQueueMetricsPoints(
  queue: UdpQueue,
  options: UdpQueueMetricsPointsOptions,
): PeriodicPoints {
  // From zero: what the queue counted before the writer started belongs to the first point.
  let baseline = zeroUdpQueueCounters();
  let kernelBaseline = 0;
  let durationMark = 0;
  let takes = 0;
  let writtenTake = 0;
  const queueMetricsPoint = queueMetricsPointMapper(options.version);

  return {
    take(nowMs) {
      const current = queue.counters();
      const mark = queue.processingTimes.mark();
      const take = ++takes;
      const delta = (key: keyof UdpQueueCounters) => current[key] - baseline[key];
      const state = queue.state();
      const durations = queue.processingTimes.stats(durationMark);
      const kernel = options.kernelDrops?.().dropped ?? null;
      const point = queueMetricsPoint({
        measurement: options.config.measurementName,
        queueType: queue.name,
        host: options.host,
        tags: options.config.tags,
        timestampMs: nowMs,
        values: {
          waiting: state.waiting,
          maxSize: state.maxSize,
          running: state.running,
          received: delta("received"),
          queued: delta("queued"),
          processed:
            delta("processed") + delta("malformed") + delta("unknownMarker") + delta("droppedByRule"),
          failed: delta("failed"),
          droppedTotal:
            delta("droppedSource") +
            delta("droppedSize") +
            delta("droppedRateLimit") +
            delta("droppedQueueFull"),
          droppedRateLimit: delta("droppedRateLimit"),
          droppedQueueFull: delta("droppedQueueFull"),
          droppedSize: delta("droppedSize"),
          backpressureActive: state.backpressureActive,
          utilisationPct: state.utilisationPct,
          processingTimeAvgMs: durations.avgMs,
          processingTimeP95Ms: durations.p95Ms,
          processingTimeMaxMs: durations.maxMs,
        },
        extraCounts: {
          rate_limit_current: state.rateLimitCurrent,
          messages_dropped_source: delta("droppedSource"),
          messages_malformed: delta("malformed"),
          messages_unknown_marker: delta("unknownMarker"),
          messages_dropped_by_rule: delta("droppedByRule"),
          ...(kernel === null ? {} : { messages_dropped_kernel: kernel - kernelBaseline }),
        },
      });
      return {
        points: [point],
        written() {
          // A late `written()` of an older take must not move the baseline back.
          if (take <= writtenTake) return;
          writtenTake = take;
          baseline = current;
          durationMark = mark;
          if (kernel !== null) kernelBaseline = kernel;
        },
      };
    },
  };
}

/** `outcome` label values of `steward_udp_messages_total` and the counter behind each. */
export const UDP_DATAGRAM_OUTCOMES = {
  received: "received",
  processed: "processed",
  dropped_source: "droppedSource",
  dropped_size: "droppedSize",
  dropped_rate_limit: "droppedRateLimit",
  dropped_queue_full: "droppedQueueFull",
  malformed: "malformed",
  unknown_marker: "unknownMarker",
  dropped_by_rule: "droppedByRule",
  // Also an outcome: a processor that throws is a bug worth seeing on a dashboard.
  failed: "failed",
} as const satisfies Record<string, keyof UdpQueueCounters>;

export type UdpDatagramOutcome = keyof typeof UDP_DATAGRAM_OUTCOMES;

/** The outcome of datagrams the operating system dropped before the queue saw them. */
export const KERNEL_DROP_OUTCOME = "dropped_kernel";

/** The queues whose metrics a registry publishes, each with what answers its kernel drops. */
type RegisteredQueues = Array<{
  queue: UdpQueue;
  kernelDrops: (queue: UdpQueue) => KernelDropCount | undefined;
}>;

const registeredQueues = new WeakMap<MetricsRegistry, RegisteredQueues>();

/**
 * Adds `queues` to the UDP scrape metrics of `registry`; `kernelDrops` answers for a queue's
 * socket, when it has a count, and `platformReportsKernelDrops` says whether the operating system
 * keeps such a count at all (the same for every listener of a process). The metrics are declared
 * at the first call for a registry (a metric name is declared only once), so that each part with
 * UDP listeners (platform events, task events) adds its own queues.
 */
export function registerUdpQueueMetrics(
  registry: MetricsRegistry,
  queues: readonly UdpQueue[],
  kernelDrops?: (queue: UdpQueue) => KernelDropCount | undefined,
  platformReportsKernelDrops = true,
): void {
  const known = registeredQueues.get(registry);
  const added = queues.map((queue) => ({ queue, kernelDrops: kernelDrops ?? (() => undefined) }));
  if (known !== undefined) {
    known.push(...added);
    return;
  }
  registeredQueues.set(registry, added);
  declareUdpQueueMetrics(registry, added, platformReportsKernelDrops);
}

/** What the help of steward_udp_messages_total says of dropped_kernel. */
export function kernelDropsHelp(platformReportsKernelDrops: boolean): string {
  return platformReportsKernelDrops
    ? "dropped_kernel: dropped by the operating system before they were received (where it reports them)"
    : "dropped_kernel: not available on this platform (the operating system does not report the datagrams it drops), so never given, rather than a 0 that looks measured";
}

function declareUdpQueueMetrics(
  registry: MetricsRegistry,
  registered: RegisteredQueues,
  platformReportsKernelDrops: boolean,
): void {
  const outcomes = Object.entries(UDP_DATAGRAM_OUTCOMES) as Array<
    [UdpDatagramOutcome, keyof UdpQueueCounters]
  >;
  registry.counter({
    name: "steward_udp_messages_total",
    help:
      "UDP datagrams per queue and outcome since start: received, then one admission or processing outcome each; " +
      kernelDropsHelp(platformReportsKernelDrops),
    labelNames: ["queue", "outcome"],
    collect() {
      const samples: Array<MetricSample<"queue" | "outcome">> = [];
      for (const { queue, kernelDrops } of registered) {
        const counters = queue.counters();
        for (const [outcome, key] of outcomes) {
          samples.push({ labels: { queue: queue.name, outcome }, value: counters[key] });
        }
        const dropped = kernelDrops(queue)?.dropped ?? null;
        if (dropped !== null) {
          samples.push({ labels: { queue: queue.name, outcome: KERNEL_DROP_OUTCOME }, value: dropped });
        }
      }
      return samples;
    },
  });
  registry.gauge({
    name: "steward_udp_queue_size",
    help: "UDP datagrams waiting in the queue for a processing slot (not counting those being processed)",
    labelNames: ["queue"],
    collect: () =>
      registered.map(({ queue }) => ({ labels: { queue: queue.name }, value: queue.state().waiting })),
  });
}
