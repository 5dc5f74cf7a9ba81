/**
 * The admission and bounded-concurrency stage of one UDP socket (`user_events` or `log_events`;
 * reference agent §3.1, CONTRACT §7). Per datagram, in order: source check → size
 * (`maxMessageSize` bytes) → rate limit (one fixed window for the whole socket) → bounded queue
 * (dropped when `maxSize` already wait, so capacity is maxSize + maxConcurrent) → the injected
 * DatagramProcessor, at most `maxConcurrent` at once. Every datagram gets an admission answer
 * and every drop a counted reason; the processor's outcome is counted, a processor that throws
 * is counted as failed and logged, never allowed to escape.
 *
 * Built for ≥ 50,000 datagrams/s on one core: admission is synchronous, waiting datagrams sit in
 * a ring of parallel arrays, and a processing slot carries its completion callbacks from one
 * datagram to the next, so the only per-datagram promises are the processor's and its `then`.
 * `stop()` refuses new datagrams, waits for the waiting and running ones, and flushes the
 * pending drop summary.
 */
import type { UdpServerConfig } from "../config/index.ts";
import { createDurationWindow, type DurationReader, type DurationStats } from "../duration-window.ts";
import type { Clock, Logger, Stoppable } from "../ports.ts";
import { createFixedWindowCounter, type FixedWindowCounter } from "../ratelimit/fixed-window-counter.ts";
import { createBackpressureMonitor } from "./backpressure.ts";
import { createDropLog } from "./drop-log.ts";
import type { DatagramOutcome, DatagramProcessor } from "./event-destinations.ts";
import { acceptAllSources, type SourceValidator } from "./source-validator.ts";
import { type UdpQueueCounters, zeroUdpQueueCounters } from "./udp-queue-counters.ts";
import type { UdpSender } from "./udp-sender.ts";
import { createWaitingRing, type WaitingItem } from "./waiting-ring.ts";

export type { UdpQueueCounters } from "./udp-queue-counters.ts";

export type UdpQueueName = "user_events" | "log_events";

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
  /** Durations kept for the statistics (reference: the last 1000). */
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

interface Slot {
  startedAt: number;
  readonly settled: (outcome: DatagramOutcome) => void;
  readonly failed: (error: unknown) => void;
}

export function createUdpQueue(options: UdpQueueOptions, deps: UdpQueueDeps): UdpQueue {
  const { name, config } = options;
  const { processor, clock, logger } = deps;
  const { maxSize, maxConcurrent } = config.messageQueue;
  const maxMessageSize = config.maxMessageSize;
  const sources = deps.sources ?? acceptAllSources;
  const elapsed = deps.elapsedMs ?? (() => clock.now());
  const limiter: FixedWindowCounter | undefined = config.rateLimit.enable
    ? createFixedWindowCounter({ limit: config.rateLimit.maxMessagesPerMinute })
    : undefined;
  const backpressure = createBackpressureMonitor(
    { label: name, maxSize, thresholdPct: config.messageQueue.backpressureThreshold },
    logger,
  );
  const drops = createDropLog({ label: name }, { clock, logger });
  const processingTimes = createDurationWindow(options.timingSamples);
  const timesInQueue = createDurationWindow(options.timingSamples);
  const counts = zeroUdpQueueCounters();

  const waiting = createWaitingRing(maxSize);
  const next: WaitingItem = {
    datagram: new Uint8Array(0),
    sender: { address: "", port: 0 },
    receivedAtMs: 0,
    enqueuedAt: 0,
  };
  const freeSlots: Slot[] = [];
  let running = 0;
  let stopping = false;
  let idleWaiters: Array<() => void> = [];

  function newSlot(): Slot {
    const slot: Slot = {
      startedAt: 0,
      settled: (outcome) => {
        processingTimes.record(elapsed() - slot.startedAt);
        countOutcome(outcome);
        release(slot);
        afterCompletion();
      },
      failed: (error) => {
        processingTimes.record(elapsed() - slot.startedAt);
        recordFailure(error);
        release(slot);
        afterCompletion();
      },
    };
    return slot;
  }

  function start(
    datagram: Uint8Array,
    sender: UdpSender,
    receivedAtMs: number,
    startedAt: number,
    waitedMs: number,
  ): void {
    running += 1;
    const slot = freeSlots.pop() ?? newSlot();
    slot.startedAt = startedAt;
    timesInQueue.record(waitedMs);
    try {
      processor(datagram, receivedAtMs, sender.address).then(slot.settled, slot.failed);
    } catch (error) {
      // A synchronous throw (or no promise at all): account for it here and let the caller's
      // loop go on, rather than recursing into the next datagram.
      recordFailure(error);
      release(slot);
    }
  }

  function recordFailure(error: unknown): void {
    counts.failed += 1;
    drops.failed(error, clock.now());
  }

  function release(slot: Slot): void {
    running -= 1;
    freeSlots.push(slot);
  }

  function afterCompletion(): void {
    pump();
    if (backpressure.active) backpressure.update(waiting.size, clock.now());
  }

  function pump(): void {
    while (running < maxConcurrent && waiting.shiftInto(next)) {
      const now = elapsed();
      start(next.datagram, next.sender, next.receivedAtMs, now, now - next.enqueuedAt);
    }
    if (running === 0 && waiting.size === 0 && idleWaiters.length > 0) {
      const resolvers = idleWaiters;
      idleWaiters = [];
      for (const resolve of resolvers) resolve();
    }
  }

  function countOutcome(outcome: DatagramOutcome): void {
    switch (outcome) {
      case "malformed":
        counts.malformed += 1;
        return;
      case "unknown_marker":
        counts.unknownMarker += 1;
        return;
      case "dropped_by_rule":
        counts.droppedByRule += 1;
        return;
      default:
        counts.processed += 1;
    }
  }

  function drain(): Promise<void> {
    if (running === 0 && waiting.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => idleWaiters.push(resolve));
  }

  const describeRateLimit = () =>
    `Rate limit exceeded for ${name}: more than ${config.rateLimit.maxMessagesPerMinute} messages per minute; dropping until the next minute`;
  const describeQueueFull = () =>
    `Queue full for ${name}: ${maxSize} messages waiting and ${maxConcurrent} processing; dropping`;

  return {
    name,
    processingTimes,
    timesInQueue,

    offer(datagram, sender, receivedAtMs) {
      if (stopping) return "stopped";
      counts.received += 1;
      if (!sources.accepts(sender, receivedAtMs)) {
        counts.droppedSource += 1;
        // The validator logs rejections itself, throttled per sender.
        drops.dropped("source", receivedAtMs);
        return "dropped_source";
      }
      if (datagram.byteLength > maxMessageSize) {
        counts.droppedSize += 1;
        drops.dropped("size", receivedAtMs, () => {
          const from = `${sender.address}:${sender.port}`;
          return `Message for ${name} from ${from} exceeds size limit: ${datagram.byteLength} bytes (max ${maxMessageSize})`;
        });
        return "dropped_size";
      }
      if (limiter !== undefined && !limiter.tryTake(receivedAtMs)) {
        counts.droppedRateLimit += 1;
        drops.dropped("rate_limit", receivedAtMs, describeRateLimit);
        return "dropped_rate_limit";
      }
      if (running < maxConcurrent) {
        counts.queued += 1;
        start(datagram, sender, receivedAtMs, elapsed(), 0);
        return "queued";
      }
      const waitingBefore = waiting.size;
      backpressure.update(waitingBefore, receivedAtMs);
      if (waitingBefore >= maxSize) {
        counts.droppedQueueFull += 1;
        drops.dropped("queue_full", receivedAtMs, describeQueueFull);
        return "dropped_queue_full";
      }
      waiting.push(datagram, sender, receivedAtMs, elapsed());
      counts.queued += 1;
      return "queued";
    },

    drain,

    async stop() {
      stopping = true;
      await drain();
      drops.flush();
    },

    counters: () => ({ ...counts }),

    state() {
      return {
        waiting: waiting.size,
        running,
        maxSize,
        maxConcurrent,
        utilisationPct: (waiting.size / maxSize) * 100,
        backpressureActive: backpressure.active,
        rateLimitCurrent: limiter === undefined ? 0 : limiter.ratePerMinute(clock.now()),
      };
    },

    stats: () => ({ processingTime: processingTimes.stats(), timeInQueue: timesInQueue.stats() }),
  };
}
