/**
 * The durable audit event queue of the local runtime, and the map of this folder.
 *
 * The queue is the local EventQueue with a durable log behind it: `enqueue` answers "queued"
 * (→ 202) only once the event's record is synced to disk. Each destination has its own reader
 * (destination-readers.ts) that starts at the destination's cursor and follows the log, handing
 * events to `deliver` in log order. When the destination reports a batch written (`written`), its
 * cursor moves past the batch's last event. Delivery is at-least-once: a crash repeats what was
 * written but whose cursor had not reached the disk yet. `stop()` lets the readers hand out what
 * the log holds.
 *
 * Bounded by `maxDiskBytes`: when full, `enqueue` answers "full" (→ 503 with retry-after) and a
 * WARN, at most once a minute, names the destination that holds the log back. An event whose
 * record is larger than all of `maxDiskBytes` can never be queued: it is answered "too-large"
 * (→ 413, no retry-after: a retry cannot succeed), counted as `droppedSize`, with its own WARN
 * (disk-use-warnings.ts), and the log is not reported as full for it. The queue's own global rate
 * limit (`rateLimit`) answers "rate-limited" as the in-process queue does. `usage()` is what the
 * status page shows: the disk used against the limit, whether events are refused because the log
 * is full, and how far each destination is behind.
 *
 * Why here, in one folder under core/adapters/local/: the whole queue is one adapter, the local
 * runtime's EventQueue, and all of it is used by that runtime alone. Its pure rules (record
 * format, positions, which destinations an event goes to, group commit) import nothing
 * runtime-specific, but live beside the file I/O they serve so that the queue reads as one piece.
 * The files, from the top down:
 * - the queue: this file, destination-readers.ts, appends-in-flight.ts, disk-use-warnings.ts;
 *   recovering-event-queue.ts and durable-log-keeper.ts keep it answering 503 while its log
 *   cannot be opened or written;
 * - the log (durable-log.ts) ties: segment-files.ts, active-segment.ts and torn-tail.ts (segment
 *   files: naming, opening, zero-filling, sealing, deleting, crash recovery), record-format.ts
 *   (records and their checksum), group-commit.ts and log-writer.ts (appends batched into one
 *   write and one sync), synced-end.ts (what readers may see), recent-records.ts and
 *   log-reading.ts (reads), disk-budget.ts (`maxDiskBytes`), log-positions.ts;
 * - cursors: destination-cursors.ts (in memory, persisted), cursor-files.ts, ../replace-file.ts,
 *   destination-manifest.ts, destination-selection.ts and open-destination-cursors.ts (where each
 *   destination starts when the selection changed between runs).
 */
import type { AcceptedEvent } from "../../../audit/accepted-event.ts";
import { acceptedEventJson } from "../../../audit/envelope-json.ts";
import { EventQueueUnavailableError } from "../../../audit/queue-errors.ts";
import type {
  Clock,
  EnqueueResult,
  EventQueue,
  EventQueueMetrics,
  Logger,
  Stoppable,
} from "../../../ports.ts";
import { createFixedWindowCounter } from "../../../ratelimit/index.ts";
import { AppendsInFlight } from "./appends-in-flight.ts";
import { DestinationReaders } from "./destination-readers.ts";
import { DiskUseWarnings } from "./disk-use-warnings.ts";
import type { AppendResult, DurableLog } from "./durable-log.ts";
import { RECORD_HEADER_BYTES } from "./record-format.ts";

export interface DurableEventQueueOptions {
  /** Percent of maxDiskBytes at which a WARN names the destination furthest behind. */
  backpressureThreshold: number;
  rateLimit: { enable: boolean; maxPerMinute: number };
}

export interface DurableEventQueueDeps {
  log: DurableLog;
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

export interface DurableEventQueue extends EventQueue, Stoppable {
  /** A destination wrote these events (in log order): its cursor moves past the last one. */
  written(destination: string, events: readonly AcceptedEvent[]): void;
  metrics(): EventQueueMetrics;
  /** Resolves once every event appended so far was handed to every destination. */
  drain(): Promise<void>;
  usage(): DurableQueueUsage;
}

export function createDurableEventQueue(
  options: DurableEventQueueOptions,
  deps: DurableEventQueueDeps,
): DurableEventQueue {
  return new LogBackedEventQueue(options, deps);
}

class LogBackedEventQueue implements DurableEventQueue {
  private readonly rateLimit: ReturnType<typeof createFixedWindowCounter> | undefined;
  private readonly warnings: DiskUseWarnings;
  private readonly appends = new AppendsInFlight();
  private readonly counters = {
    received: 0,
    queued: 0,
    failed: 0,
    droppedRateLimit: 0,
    droppedQueueFull: 0,
    droppedSize: 0,
  };
  /** Refusals for a full log since the last accepted event, and the size of the last one refused. */
  private refusedFull: { sinceMs: number; refused: number; bytes: number } | undefined;
  private readonly lastWrittenMs = new Map<string, number>();
  private readonly readers: DestinationReaders;

  constructor(
    private readonly options: DurableEventQueueOptions,
    private readonly deps: DurableEventQueueDeps,
  ) {
    const { log, clock, logger } = deps;
    this.rateLimit = options.rateLimit.enable
      ? createFixedWindowCounter({ limit: options.rateLimit.maxPerMinute })
      : undefined;
    this.warnings = new DiskUseWarnings(log, options.backpressureThreshold, clock, logger);
    this.readers = new DestinationReaders(deps, this.appends, () => {
      this.counters.failed += 1;
    });
  }

  async enqueue(event: AcceptedEvent, envelopeJson?: string): Promise<EnqueueResult> {
    if (this.appends.stopping) throw new EventQueueUnavailableError("audit event queue is stopping");
    const { counters } = this;
    counters.received += 1;
    if (this.rateLimit !== undefined && !this.rateLimit.tryTake(this.deps.clock.now())) {
      counters.droppedRateLimit += 1;
      return "rate-limited";
    }
    let appended: AppendResult;
    const payload = acceptedEventJson(event, envelopeJson);
    this.appends.begin();
    try {
      appended = await this.deps.log.append(payload, event);
    } catch (error) {
      throw new EventQueueUnavailableError("the audit event log could not be written", { cause: error });
    } finally {
      this.appends.end();
    }
    if (appended === "too-large") {
      counters.droppedSize += 1;
      this.warnings.tooLarge(RECORD_HEADER_BYTES + Buffer.byteLength(payload));
      return "too-large";
    }
    if (appended === "full") {
      counters.droppedQueueFull += 1;
      this.refusedFull = {
        sinceMs: this.refusedFull?.sinceMs ?? this.deps.clock.now(),
        refused: (this.refusedFull?.refused ?? 0) + 1,
        bytes: RECORD_HEADER_BYTES + Buffer.byteLength(payload),
      };
      this.warnings.fillingOrFull(true);
      return "full";
    }
    counters.queued += 1;
    this.refusedFull = undefined;
    if (this.options.backpressureThreshold < 100) this.warnings.fillingOrFull(false);
    return "queued";
  }

  written(destination: string, events: readonly AcceptedEvent[]): void {
    const last = events[events.length - 1];
    const end = last === undefined ? undefined : this.readers.endOf(last);
    if (end === undefined) return;
    this.deps.log.advance(destination, end);
    this.lastWrittenMs.set(destination, this.deps.clock.now());
  }

  metrics(): EventQueueMetrics {
    const { counters } = this;
    const { log } = this.deps;
    const done = this.readers.handedToAll(counters.queued);
    const times = this.readers.processingTimes.stats();
    const waiting = counters.queued - done;
    return {
      ...counters,
      processed: done,
      droppedTotal: counters.droppedRateLimit + counters.droppedQueueFull + counters.droppedSize,
      waiting,
      maxSize: 0,
      running: 0,
      utilisationPct: (log.bytesOnDisk() / log.maxDiskBytes) * 100,
      backpressureActive: (log.bytesOnDisk() / log.maxDiskBytes) * 100 >= this.options.backpressureThreshold,
      processingTimeAvgMs: times.avgMs,
      processingTimeP95Ms: times.p95Ms,
      processingTimeMaxMs: times.maxMs,
    };
  }

  usage(): DurableQueueUsage {
    const { log } = this.deps;
    const used = log.bytesOnDisk();
    const end = log.end();
    const destinations: DurableQueueUsage["destinations"] = {};
    for (const destination of this.deps.destinations) {
      const writtenMs = this.lastWrittenMs.get(destination);
      destinations[destination] = {
        behindBytes: Math.max(0, end - log.cursor(destination)),
        ...(writtenMs === undefined ? {} : { lastWrittenAt: new Date(writtenMs).toISOString() }),
      };
    }
    // Refusing still: the last event refused would not be taken now either (the log frees space
    // only as destinations write, and nothing else is appended meanwhile).
    const refusedFull = this.refusedFull;
    const refusing = refusedFull !== undefined && !log.wouldTake(refusedFull.bytes);
    return {
      bytesOnDisk: used,
      maxDiskBytes: log.maxDiskBytes,
      warnAtPct: this.options.backpressureThreshold,
      ...(refusing && refusedFull !== undefined
        ? { full: { since: new Date(refusedFull.sinceMs).toISOString(), refused: refusedFull.refused } }
        : {}),
      destinations,
    };
  }

  drain(): Promise<void> {
    return this.readers.drain();
  }

  async stop(): Promise<void> {
    await this.appends.stop();
    this.deps.log.wakeWaiters();
    await this.readers.ended();
  }
}
