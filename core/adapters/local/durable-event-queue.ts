/**
 * The local EventQueue with the durable log (segment-log.ts) behind it: `enqueue` answers
 * "queued" (→ 202) only once the event's record is synced to disk. Each destination has its own
 * reader that starts at the destination's cursor (so at start-up everything it had not yet
 * written is handed to it again, before any new event) and follows the log as it grows, handing
 * events to `deliver` in log order. When the destination reports a batch written (`written`),
 * its cursor moves past the batch's last event. Delivery is at-least-once: a crash repeats what
 * was written but whose cursor had not reached the disk yet. `stop()` lets the readers hand out
 * what the log holds; a reader whose destination was given up at the shutdown's deadline (it
 * refuses what it is handed) ends there without an error, the rest staying in the log.
 *
 * Bounded by `maxDiskBytes`: when full, `enqueue` answers "full" (→ 503 with retry-after) and a
 * WARN, at most once a minute, names the destination that holds the log back. An event whose
 * record is larger than all of `maxDiskBytes` can never be queued: it is answered "too-large"
 * (→ 413, no retry-after: a retry cannot succeed), counted as `droppedSize`, with its own WARN
 * (at most once a minute, with the sizes), and the log is not reported as full for it. The
 * queue's own global rate limit (`rateLimit`) answers "rate-limited" as the in-process queue does.
 * `usage()` is what the status page shows: the disk used against the limit, whether events are
 * refused because the log is full, and how far each destination is behind.
 */
import type { AcceptedEvent } from "../../audit/accepted-event.ts";
import { acceptedEventJson } from "../../audit/envelope-json.ts";
import { EventQueueUnavailableError } from "../../audit/queue-errors.ts";
import { RECORD_HEADER_BYTES } from "../../durable-log/record-format.ts";
import { createDurationWindow } from "../../duration-window.ts";
import { createLogThrottle } from "../../logging/log-throttle.ts";
import type { Clock, EnqueueResult, EventQueue, EventQueueMetrics, Logger, Service } from "../../ports.ts";
import { createFixedWindowCounter } from "../../ratelimit/fixed-window-counter.ts";
import type { AppendResult, SegmentLog } from "./segment-log.ts";

export interface DurableEventQueueOptions {
  /** Percent of maxDiskBytes at which a WARN names the destination furthest behind. */
  backpressureThreshold: number;
  rateLimit: { enable: boolean; maxPerMinute: number };
}

export interface DurableEventQueueDeps {
  log: SegmentLog;
  /** The destinations, by name, that read the log (each has a cursor in it). */
  destinations: readonly string[];
  /** Hands one event to a destination (its batcher); resolves once it is buffered there. */
  deliver(destination: string, event: AcceptedEvent): Promise<void>;
  logger: Logger;
  clock: Clock;
}

/** The log's use of its disk budget and each destination's backlog (the status page's `audit.queue`). */
export interface DurableQueueUsage {
  bytesOnDisk: number;
  maxDiskBytes: number;
  /** Percent of maxDiskBytes at which the log is reported as filling up (backpressureThreshold). */
  warnAtPct: number;
  /** While events are refused (503) because the log is full: since when and how many. */
  full?: { since: string; refused: number };
  /** Per destination: bytes of the log it has not written yet, and when it last wrote some. */
  destinations: Record<string, { behindBytes: number; lastWrittenAt?: string }>;
}

export interface DurableEventQueue extends EventQueue, Service {
  /** A destination wrote these events (in log order): its cursor moves past the last one. */
  written(destination: string, events: readonly AcceptedEvent[]): void;
  metrics(): EventQueueMetrics;
  /** Resolves once every event appended so far was handed to every destination. */
  drain(): Promise<void>;
  usage(): DurableQueueUsage;
}

/** How much of the log one reader step decodes. */
const READ_BYTES = 256 * 1024;

export function createDurableEventQueue(
  options: DurableEventQueueOptions,
  deps: DurableEventQueueDeps,
): DurableEventQueue {
  const { log, logger, clock } = deps;
  const rateLimit = options.rateLimit.enable
    ? createFixedWindowCounter({ limit: options.rateLimit.maxPerMinute })
    : undefined;
  const throttle = createLogThrottle();
  // Where each handed-out event ends in the log, to move cursors when it is written.
  const endOf = new WeakMap<AcceptedEvent, number>();
  const endAtStart = log.end();
  const handedNew = new Map(deps.destinations.map((destination) => [destination, 0]));
  const positions = new Map(deps.destinations.map((destination) => [destination, log.cursor(destination)]));
  let stopping = false;
  /** Appends not yet answered: stop() lets them finish, and the readers hand them out. */
  let appending = 0;
  let appendsSettled: (() => void) | undefined;
  let idleWaiters: Array<() => void> = [];
  const counters = {
    received: 0,
    queued: 0,
    failed: 0,
    droppedRateLimit: 0,
    droppedQueueFull: 0,
    droppedSize: 0,
  };
  /** Refusals for a full log since the last accepted event, and the size of the last one refused. */
  let refusedFull: { sinceMs: number; refused: number; bytes: number } | undefined;
  const lastWrittenMs = new Map<string, number>();
  /** How long handing one event to one destination took (its batcher buffering it, or waiting for room). */
  const processingTimes = createDurationWindow();

  function warnIfFilling(full: boolean): void {
    const used = log.bytesOnDisk();
    const utilisationPct = (used / log.maxDiskBytes) * 100;
    if (!full && utilisationPct < options.backpressureThreshold) return;
    const count = throttle.admit(full ? "full" : "filling", clock.now());
    if (count === undefined) return;
    const slowest = log.slowest();
    logger.warn(
      full
        ? "Audit event queue is full on disk; events are refused (503) until the destination behind catches up"
        : "Audit event queue backpressure: the log on disk is filling up",
      {
        destinationBehind: slowest?.destination ?? "none",
        behindBytes: slowest?.behindBytes ?? 0,
        bytesOnDisk: used,
        maxDiskBytes: log.maxDiskBytes,
        utilisationPct: Math.round(utilisationPct),
        ...(full ? { refusedSinceLastWarning: count } : {}),
      },
    );
  }

  function warnTooLarge(recordBytes: number): void {
    const count = throttle.admit("too-large", clock.now());
    if (count === undefined) return;
    logger.warn(
      "Audit event refused (413): it is larger than the whole queue on disk and can never be queued; raise auditEvents.queue.maxDiskBytes or lower auditEvents.maxBodyBytes",
      { recordBytes, maxDiskBytes: log.maxDiskBytes, refusedSinceLastWarning: count },
    );
  }

  function settleIdle(): void {
    if (idleWaiters.length === 0) return;
    const end = log.end();
    for (const position of positions.values()) if (position < end) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const wake of waiters) wake();
  }

  function parse(payload: string, destination: string, end: number): AcceptedEvent | undefined {
    try {
      return JSON.parse(payload) as AcceptedEvent;
    } catch {
      // Unreachable unless the file was altered with a matching checksum: skip, never crash.
      logger.warn("Audit event queue: skipped a log record that is not an event", { destination, end });
      return undefined;
    }
  }

  function slowestReader(): number {
    let slowest = Number.POSITIVE_INFINITY;
    for (const position of positions.values()) slowest = Math.min(slowest, position);
    return slowest;
  }

  async function follow(destination: string): Promise<void> {
    let position = positions.get(destination) as number;
    for (;;) {
      if (position >= log.end()) {
        settleIdle();
        if (stopping && appending === 0) return;
        // stop() wakes this wait once no append is left (not Promise.race with a long-lived
        // promise: each race would leave a reaction on it, a leak at thousands of waits a second).
        await log.waitForEnd(position);
        continue;
      }
      const { records, next } = await log.read(position, READ_BYTES);
      for (const record of records) {
        const event =
          (record.value as AcceptedEvent | undefined) ?? parse(record.payload ?? "", destination, record.end);
        if (event === undefined) {
          log.advance(destination, record.end);
          continue;
        }
        endOf.set(event, record.end);
        const started = clock.now();
        await deps.deliver(destination, event);
        processingTimes.record(clock.now() - started);
        if (record.end > endAtStart) handedNew.set(destination, (handedNew.get(destination) ?? 0) + 1);
      }
      position = next;
      positions.set(destination, position);
      log.release(slowestReader());
    }
  }

  const readers = deps.destinations.map((destination) =>
    follow(destination).catch((error: unknown) => {
      const fields = { destination, error: error instanceof Error ? error.message : String(error) };
      positions.set(destination, Number.POSITIVE_INFINITY);
      settleIdle();
      // While stopping, a destination given up at the shutdown's deadline refuses what is handed
      // to it: expected, and nothing is lost (the rest stays in the log for the next start).
      if (stopping) {
        logger.debug(
          "Audit event queue: stopped handing events to a destination; the rest stays in the log",
          fields,
        );
        return;
      }
      counters.failed += 1;
      logger.error(
        "Audit event queue: a destination stopped reading the log; it resumes at the next start",
        fields,
      );
    }),
  );

  const processed = () => {
    let least = counters.queued;
    for (const count of handedNew.values()) least = Math.min(least, count);
    return deps.destinations.length === 0 ? counters.queued : least;
  };

  return {
    async enqueue(event, envelopeJson): Promise<EnqueueResult> {
      if (stopping) throw new EventQueueUnavailableError("audit event queue is stopping");
      counters.received += 1;
      if (rateLimit !== undefined && !rateLimit.tryTake(clock.now())) {
        counters.droppedRateLimit += 1;
        return "rate-limited";
      }
      let appended: AppendResult;
      const payload = acceptedEventJson(event, envelopeJson);
      appending += 1;
      try {
        appended = await log.append(payload, event);
      } catch (error) {
        throw new EventQueueUnavailableError("the audit event log could not be written", { cause: error });
      } finally {
        appending -= 1;
        if (appending === 0) appendsSettled?.();
      }
      if (appended === "too-large") {
        counters.droppedSize += 1;
        warnTooLarge(RECORD_HEADER_BYTES + Buffer.byteLength(payload));
        return "too-large";
      }
      if (appended === "full") {
        counters.droppedQueueFull += 1;
        refusedFull = {
          sinceMs: refusedFull?.sinceMs ?? clock.now(),
          refused: (refusedFull?.refused ?? 0) + 1,
          bytes: RECORD_HEADER_BYTES + Buffer.byteLength(payload),
        };
        warnIfFilling(true);
        return "full";
      }
      counters.queued += 1;
      refusedFull = undefined;
      if (options.backpressureThreshold < 100) warnIfFilling(false);
      return "queued";
    },

    written(destination, events) {
      const last = events[events.length - 1];
      const end = last === undefined ? undefined : endOf.get(last);
      if (end === undefined) return;
      log.advance(destination, end);
      lastWrittenMs.set(destination, clock.now());
    },

    metrics() {
      const done = processed();
      const times = processingTimes.stats();
      const waiting = counters.queued - done;
      return {
        ...counters,
        processed: done,
        droppedTotal: counters.droppedRateLimit + counters.droppedQueueFull + counters.droppedSize,
        waiting,
        maxSize: 0,
        running: 0,
        utilisationPct: (log.bytesOnDisk() / log.maxDiskBytes) * 100,
        backpressureActive: (log.bytesOnDisk() / log.maxDiskBytes) * 100 >= options.backpressureThreshold,
        processingTimeAvgMs: times.avgMs,
        processingTimeP95Ms: times.p95Ms,
        processingTimeMaxMs: times.maxMs,
      };
    },

    usage() {
      const used = log.bytesOnDisk();
      const end = log.end();
      const destinations: DurableQueueUsage["destinations"] = {};
      for (const destination of deps.destinations) {
        const writtenMs = lastWrittenMs.get(destination);
        destinations[destination] = {
          behindBytes: Math.max(0, end - log.cursor(destination)),
          ...(writtenMs === undefined ? {} : { lastWrittenAt: new Date(writtenMs).toISOString() }),
        };
      }
      // Refusing still: the last event refused would not be taken now either (the log frees space
      // only as destinations write, and nothing else is appended meanwhile).
      const refusing = refusedFull !== undefined && !log.wouldTake(refusedFull.bytes);
      return {
        bytesOnDisk: used,
        maxDiskBytes: log.maxDiskBytes,
        warnAtPct: options.backpressureThreshold,
        ...(refusing && refusedFull !== undefined
          ? { full: { since: new Date(refusedFull.sinceMs).toISOString(), refused: refusedFull.refused } }
          : {}),
        destinations,
      };
    },

    drain() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      });
    },

    async stop() {
      stopping = true;
      if (appending > 0) await new Promise<void>((resolve) => (appendsSettled = resolve));
      log.wakeWaiters();
      await Promise.all(readers);
    },
  };
}
