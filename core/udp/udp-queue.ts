/**
 * The admission and bounded-concurrency stage of one UDP socket (`user_events`, `log_events` or
 * `task_events`).
 * Per datagram, in order: source check → size (`maxMessageSize` bytes) → rate limit (one fixed
 * window for the whole socket) → bounded queue (dropped when `maxSize` already wait, so capacity is
 * maxSize + maxConcurrent) → the injected DatagramProcessor, at most `maxConcurrent` at once. Every
 * datagram gets an admission answer and every drop a counted reason; the processor's outcome is
 * counted, a processor that throws is counted as failed and logged, never allowed to escape.
 *
 * Built for ≥ 50,000 datagrams/s on one core: admission is synchronous, waiting datagrams sit in
 * a ring of parallel arrays, and a processing slot carries its completion callbacks from one
 * datagram to the next, so the only per-datagram promises are the processor's and its `then`.
 * `stop()` refuses new datagrams, waits for the waiting and running ones, and flushes the
 * pending drop summary.
 *
 * The pieces, each owning the state it changes: the checks before the queue
 * (datagram-admission.ts), the ring of waiting datagrams (waiting-ring.ts), the processing slots
 * (processing-slots.ts); the counters are one record that each stage counts its answers into.
 */
import type { UdpServerConfig } from "../config/index.ts";
import {
  createDurationWindow,
  type DurationReader,
  type DurationStats,
  type DurationWindow,
} from "../duration-window.ts";
import type { Clock, Logger, Stoppable } from "../ports.ts";
import { type BackpressureMonitor, createBackpressureMonitor } from "./backpressure.ts";
import { DatagramAdmission } from "./datagram-admission.ts";
import { createDropLog, type DropLog } from "./drop-log.ts";
import type { DatagramProcessor } from "./event-destinations.ts";
import { ProcessingSlots } from "./processing-slots.ts";
import { acceptAllSources, type SourceValidator } from "./source-validator.ts";
import { type UdpQueueCounters, zeroUdpQueueCounters } from "./udp-queue-counters.ts";
import type { UdpSender } from "./udp-sender.ts";
import { createWaitingRing, type WaitingItem, type WaitingRing } from "./waiting-ring.ts";

export type { UdpQueueCounters } from "./udp-queue-counters.ts";

export type UdpQueueName = "user_events" | "log_events" | "task_events";

/** What `offer` did with a datagram. */
export type UdpAdmission =
  | "queued"
  | "dropped_source"
  | "dropped_size"
  | "dropped_rate_limit"
  | "dropped_queue_full"
  /** Offered after `stop()`: refused and not counted. */
  | "stopped";

export interface UdpQueueState {
  waiting: number;
  running: number;
  maxSize: number;
  maxConcurrent: number;
  /** waiting / maxSize × 100 */
  utilisationPct: number;
  backpressureActive: boolean;
  /** Admitted datagrams per minute in the current rate-limit window; 0 without a rate limit. */
  rateLimitCurrent: number;
}

export interface UdpQueueStats {
  processingTime: DurationStats;
  /** From `offer` to the processor's start. */
  timeInQueue: DurationStats;
}

export type UdpQueueConfig = Pick<UdpServerConfig, "messageQueue" | "rateLimit" | "maxMessageSize">;

export interface UdpQueueOptions {
  name: UdpQueueName;
  config: UdpQueueConfig;
  /** Durations kept for the statistics (Butler SOS keeps the last 1000). */
  timingSamples?: number;
}

export interface UdpQueueDeps {
  processor: DatagramProcessor;
  /** Source validation; every sender is accepted without it. */
  sources?: SourceValidator;
  clock: Clock;
  logger: Logger;
  /**
   * A monotonic clock in ms for durations (processing time, time in queue); `clock.now` by
   * default. The wiring passes `() => performance.now()` for sub-millisecond resolution.
   */
  elapsedMs?: () => number;
}

export interface UdpQueue extends Stoppable {
  readonly name: UdpQueueName;
  /** Admits or drops one datagram, synchronously; `receivedAtMs` is its epoch-ms receive time. */
  offer(datagram: Uint8Array, sender: UdpSender, receivedAtMs: number): UdpAdmission;
  /** Resolves once nothing waits and nothing runs (keeps admitting). */
  drain(): Promise<void>;
  /** A copy of the cumulative counters. */
  counters(): UdpQueueCounters;
  state(): UdpQueueState;
  readonly processingTimes: DurationReader;
  readonly timesInQueue: DurationReader;
  /** Statistics over the last `timingSamples` datagrams (for benchmarks and status pages). */
  stats(): UdpQueueStats;
}

export function createUdpQueue(options: UdpQueueOptions, deps: UdpQueueDeps): UdpQueue {
  return new BoundedUdpQueue(options, deps);
}

/**
 * The queue itself: admitted datagrams go to a free processing slot at once, or wait in the ring
 * for one; it owns the ring, the stop and the callers waiting for it to be idle.
 */
class BoundedUdpQueue implements UdpQueue {
  readonly name: UdpQueueName;
  readonly processingTimes: DurationWindow;
  readonly timesInQueue: DurationWindow;
  private readonly counts = zeroUdpQueueCounters();
  private readonly maxSize: number;
  private readonly maxConcurrent: number;
  private readonly clock: Clock;
  private readonly elapsed: () => number;
  private readonly admission: DatagramAdmission;
  private readonly backpressure: BackpressureMonitor;
  private readonly drops: DropLog;
  private readonly waiting: WaitingRing;
  private readonly slots: ProcessingSlots;
  /** The datagram taken from the ring, reused so that taking one allocates nothing. */
  private readonly next: WaitingItem = {
    datagram: new Uint8Array(0),
    sender: { address: "", port: 0 },
    receivedAtMs: 0,
    enqueuedAt: 0,
  };
  private stopping = false;
  private idleWaiters: Array<() => void> = [];
  private readonly describeQueueFull: () => string;

  constructor(options: UdpQueueOptions, deps: UdpQueueDeps) {
    const { name, config } = options;
    const { clock, logger } = deps;
    const { maxSize, maxConcurrent } = config.messageQueue;
    this.name = name;
    this.maxSize = maxSize;
    this.maxConcurrent = maxConcurrent;
    this.clock = clock;
    this.elapsed = deps.elapsedMs ?? (() => clock.now());
    this.processingTimes = createDurationWindow(options.timingSamples);
    this.timesInQueue = createDurationWindow(options.timingSamples);
    this.drops = createDropLog({ label: name }, { clock, logger });
    this.admission = new DatagramAdmission(
      {
        name,
        maxMessageSize: config.maxMessageSize,
        maxMessagesPerMinute: config.rateLimit.enable ? config.rateLimit.maxMessagesPerMinute : undefined,
      },
      deps.sources ?? acceptAllSources,
      this.counts,
      this.drops,
    );
    this.backpressure = createBackpressureMonitor(
      { label: name, maxSize, thresholdPct: config.messageQueue.backpressureThreshold },
      logger,
    );
    this.waiting = createWaitingRing(maxSize);
    this.slots = new ProcessingSlots(maxConcurrent, {
      processor: deps.processor,
      counts: this.counts,
      drops: this.drops,
      processingTimes: this.processingTimes,
      timesInQueue: this.timesInQueue,
      elapsed: this.elapsed,
      clock,
      onSlotFreed: () => this.afterCompletion(),
    });
    this.describeQueueFull = () =>
      `Queue full for ${name}: ${maxSize} messages waiting and ${maxConcurrent} processing; dropping`;
  }

  offer(datagram: Uint8Array, sender: UdpSender, receivedAtMs: number): UdpAdmission {
    if (this.stopping) return "stopped";
    const refusal = this.admission.refusal(datagram, sender, receivedAtMs);
    if (refusal !== undefined) return refusal;
    const counts = this.counts;
    if (!this.slots.full) {
      counts.queued += 1;
      this.slots.start(datagram, sender, receivedAtMs, this.elapsed(), 0);
      return "queued";
    }
    const waitingBefore = this.waiting.size;
    this.backpressure.update(waitingBefore, receivedAtMs);
    if (waitingBefore >= this.maxSize) {
      counts.droppedQueueFull += 1;
      this.drops.dropped("queue_full", receivedAtMs, this.describeQueueFull);
      return "dropped_queue_full";
    }
    this.waiting.push(datagram, sender, receivedAtMs, this.elapsed());
    counts.queued += 1;
    return "queued";
  }

  drain(): Promise<void> {
    if (this.slots.running === 0 && this.waiting.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.drain();
    this.drops.flush();
  }

  counters(): UdpQueueCounters {
    return { ...this.counts };
  }

  state(): UdpQueueState {
    const waiting = this.waiting.size;
    return {
      waiting,
      running: this.slots.running,
      maxSize: this.maxSize,
      maxConcurrent: this.maxConcurrent,
      utilisationPct: (waiting / this.maxSize) * 100,
      backpressureActive: this.backpressure.active,
      rateLimitCurrent: this.admission.rateLimitCurrent(this.clock.now()),
    };
  }

  stats(): UdpQueueStats {
    return { processingTime: this.processingTimes.stats(), timeInQueue: this.timesInQueue.stats() };
  }

  private afterCompletion(): void {
    this.pump();
    if (this.backpressure.active) this.backpressure.update(this.waiting.size, this.clock.now());
  }

  /** Starts waiting datagrams while slots are free; wakes the callers of drain() once idle. */
  private pump(): void {
    const { next, slots, waiting } = this;
    while (!slots.full && waiting.shiftInto(next)) {
      const now = this.elapsed();
      slots.start(next.datagram, next.sender, next.receivedAtMs, now, now - next.enqueuedAt);
    }
    if (slots.running === 0 && waiting.size === 0 && this.idleWaiters.length > 0) {
      const resolvers = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of resolvers) resolve();
    }
  }
}
