/**
 * Buffers items of any kind (audit events, points, observability events) for one destination and
 * writes them in batches: when `maxBatchSize` items are buffered or `writeFrequency` ms after the
 * first buffered item, whichever comes first (`writeFrequency: 0` = every item). A batch that fails
 * is kept, whole and with the same id, and written again after a backoff that doubles per failure;
 * failures are counted, and logged as a WARN naming the destination at most once a minute (the
 * first failure of an outage at once, then one line a minute with how many failed writes it stands
 * for; the others at DEBUG), and an INFO line says when writes resume.
 *
 * A refusal is not an outage: items the destination refuses as data (the write's error says
 * which, how many and why) are counted as rejected at once, by reason, and never written again,
 * without a backoff, so they hold up neither the items behind them nor a shutdown; the rest of
 * the batch counts as written. Each refusal is logged as an ERROR naming the destination, the
 * reason and the first refused items, at most one line a minute per reason (the first at once,
 * then with the count since the last line; the others at DEBUG), and kept nowhere else
 * (refusal-tally.ts, shared with the other writers). A writer that tells outages from other
 * errors (`isOutage`) has an error that is neither retried only a few times: then the items that
 * cause it are found and refused as `unwritable` (retrying-batch-write.ts).
 *
 * `add()` waits while `maxBuffered` items are pending: backpressure towards the caller. With
 * `maxWaitMs` the wait is bounded: past it, `add()` throws BufferFullError, and keeps throwing at
 * once until a batch leaves the buffer, so an outage costs a caller one bounded wait, not one per
 * item. `onDone` hears of every batch the destination is done with, in order. `stop()` flushes;
 * if the destination is not done within `stopTimeoutMs` (or `abandon()` comes first) it gives up
 * without waiting for the write in flight, and rejects with UnwrittenItemsError naming how many
 * items were not written.
 *
 * The batcher drains the buffer one batch at a time; each piece owns the state it changes: the
 * buffered items and the batch in flight (batch-buffer.ts), the callers waiting for space
 * (buffer-space.ts), one batch's writes and their backoff (retrying-batch-write.ts) and the
 * outage they make up (write-outage.ts).
 */

import type { Clock, LogFields, Logger, Stoppable, TimerHandle } from "../ports.ts";
import { BatchBuffer } from "./batch-buffer.ts";
import { BufferSpace } from "./buffer-space.ts";
import { createRefusalTally, type LastRefusal, type RefusalTally } from "./refusal-tally.ts";
import { RetryingBatchWrite } from "./retrying-batch-write.ts";
import { WriteOutage } from "./write-outage.ts";

export type { LastRefusal } from "./refusal-tally.ts";

export interface BatchingOptions {
  maxBatchSize: number;
  /** ms since the first buffered item; 0 = write every item at once. */
  writeFrequency: number;
}

/** One batch as the destination sees it; `id` and `flushedAt` are kept across retries. */
export interface ItemBatch<T> {
  readonly id: string;
  readonly flushedAt: Date;
  readonly items: readonly T[];
}

/** What a destination refused as data in a failed write: logged, counted, never retried. */
export interface Refusal {
  /** Why, as a short label (`beyond_retention`, `field_type_conflict`, …; see timeseries-refusal.ts). */
  readonly reason: string;
  /** How many items of the batch were refused for it; the others count as written. */
  readonly count: number;
  /** The destination's own words, for the log line and the status page. */
  readonly detail?: string | undefined;
  /** Log fields naming the first refused items (ids, a preview). */
  readonly fields: LogFields;
}

export interface ItemBatcherOptions<T> extends BatchingOptions {
  /** The destination's name in logs and errors. */
  name: string;
  /** Plural noun for logs and errors, e.g. "audit events", "points". */
  noun: string;
  /** Writes one batch; throws when it was not (entirely) written. */
  write(batch: ItemBatch<T>): Promise<void>;
  /**
   * The refusals a write error stands for (one per reason), or undefined when the batch should
   * be written again.
   */
  refusal(error: unknown, batch: ItemBatch<T>): readonly Refusal[] | undefined;
  /**
   * Whether a failed write that is no refusal is an outage, retried until it ends; any other
   * error is retried a few times and then isolated to the items that cause it, which are refused
   * as `unwritable` (retrying-batch-write.ts). Absent: every such failure is an outage.
   */
  isOutage?: ((error: unknown) => boolean) | undefined;
  /** Log fields naming the items of an `unwritable` refusal (e.g. their ids). */
  nameItems?: ((items: readonly T[]) => LogFields) | undefined;
  /** Told of every failed write (refused or to be retried), e.g. for error tracking. Must not throw. */
  onWriteError?: ((error: unknown) => void) | undefined;
  /**
   * Called with each batch once the destination is done with it (written, or refused as data),
   * in the order items were added: what a durable queue needs to move its cursor.
   */
  onDone?: ((items: readonly T[]) => void) | undefined;
  clock: Clock;
  logger: Logger;
  /** First retry delay, doubled per failure up to maxRetryDelayMs. */
  initialRetryDelayMs?: number | undefined;
  maxRetryDelayMs?: number | undefined;
  /** add() waits while this many items are pending (default 10 × maxBatchSize). */
  maxBuffered?: number | undefined;
  /** Longest wait of add() for space; absent = wait as long as it takes. */
  maxWaitMs?: number | undefined;
  stopTimeoutMs?: number | undefined;
}

export interface ItemBatcherStats {
  /** Items buffered or in the batch being written. */
  buffered: number;
  written: number;
  /** Writes that failed and will be (or were) retried. */
  failedWrites: number;
  /** Items the destination refused as data: logged, not retried. */
  rejected: number;
  /** `rejected` by reason; absent until the first refusal. */
  refused?: Readonly<Record<string, number>>;
  /** Absent until the first refusal. */
  lastRefusal?: LastRefusal;
}

export interface ItemBatcher<T> extends Stoppable {
  /** Buffers the item; resolves once it is buffered (waits while the buffer is full). */
  add(item: T): Promise<void>;
  stats(): ItemBatcherStats;
  /**
   * Gives up at once, as stop() does at its deadline: add() rejects (also one waiting for space),
   * a retry is not waited for, and the write in flight is no longer awaited. What was not written
   * stays counted as buffered, and stop() rejects with UnwrittenItemsError for it.
   */
  abandon(): void;
}

export class BatcherStoppedError extends Error {
  override name = "BatcherStoppedError";
}

/** add() waited `maxWaitMs` for space in a full buffer; the item was not taken. */
export class BufferFullError extends Error {
  override name = "BufferFullError";
  constructor(
    readonly destination: string,
    readonly maxBuffered: number,
  ) {
    super(`${destination}: buffer full (${maxBuffered} items pending)`);
  }
}

export class UnwrittenItemsError extends Error {
  override name = "UnwrittenItemsError";
  constructor(
    readonly destination: string,
    readonly unwritten: number,
    /** What was not written, e.g. "points", "messages". */
    readonly noun: string,
    options?: { cause: unknown },
  ) {
    super(`${destination}: ${unwritten} ${noun} could not be written before shutdown`, options);
  }
}

export function startItemBatcher<T>(options: ItemBatcherOptions<T>): ItemBatcher<T> {
  return new BatchingWriter(options);
}

/**
 * The batcher itself: when a batch is due it drains the buffer, one batch at a time, and it owns
 * what the pieces do not: whether it stops or gave up, the timer of the next due batch, the
 * drain in flight and the count of items written.
 */
class BatchingWriter<T> implements ItemBatcher<T> {
  private readonly buffer: BatchBuffer<T>;
  private readonly space: BufferSpace;
  private readonly outage: WriteOutage;
  private readonly refusals: RefusalTally;
  private readonly writes: RetryingBatchWrite<T>;
  private readonly maxBuffered: number;
  private readonly stopTimeoutMs: number;
  private written = 0;
  private timer: TimerHandle | undefined;
  private draining: Promise<void> | undefined;
  private stopping = false;
  private abandoned = false;
  private settleAbandonment: () => void = () => undefined;
  /** Resolves once abandoned: stop() waits for the write in flight or this, whichever comes first. */
  private readonly abandonment: Promise<void>;

  constructor(private readonly options: ItemBatcherOptions<T>) {
    const { name, noun, clock, logger } = options;
    const maxBatchSize = Math.max(1, options.maxBatchSize);
    this.maxBuffered = Math.max(options.maxBuffered ?? maxBatchSize * 10, maxBatchSize);
    this.stopTimeoutMs = options.stopTimeoutMs ?? 8000;
    this.buffer = new BatchBuffer(maxBatchSize, options.writeFrequency, clock);
    this.space = new BufferSpace(clock, options.maxWaitMs);
    this.outage = new WriteOutage(name, noun, clock, logger);
    this.refusals = createRefusalTally({
      logger,
      message: `destination refused ${noun}; not written there, not retried`,
      fields: { destination: name },
    });
    const delays = {
      initialRetryDelayMs: options.initialRetryDelayMs ?? 1000,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
    };
    this.writes = new RetryingBatchWrite(
      options,
      delays,
      this.outage,
      this.refusals,
      clock,
      () => this.abandoned,
    );
    this.abandonment = new Promise<void>((resolve) => {
      this.settleAbandonment = resolve;
    });
  }

  async add(item: T): Promise<void> {
    while (!this.stopping && this.buffer.pending >= this.maxBuffered) {
      if (this.space.overflowing || !(await this.space.wait())) {
        this.space.overflowed();
        throw new BufferFullError(this.options.name, this.maxBuffered);
      }
    }
    if (this.stopping) {
      throw new BatcherStoppedError(
        `${this.options.name} writer is stopping; ${this.options.noun} not accepted`,
      );
    }
    this.buffer.push(item);
    this.schedule();
  }

  stats(): ItemBatcherStats {
    return {
      buffered: this.buffer.pending,
      written: this.written,
      failedWrites: this.outage.failedWrites,
      ...this.refusals.counts(),
    };
  }

  abandon(): void {
    if (this.abandoned) return;
    this.abandoned = true;
    this.stopping = true;
    this.writes.interrupt();
    this.space.freed();
    this.settleAbandonment();
  }

  async stop(): Promise<void> {
    const { clock, name, noun } = this.options;
    if (!this.stopping) {
      this.stopping = true;
      this.space.freed();
    }
    const deadline = clock.setTimeout(() => this.abandon(), this.stopTimeoutMs);
    this.schedule();
    // Never past the deadline: a write in flight (a request to a server that stopped answering)
    // may hang until its own timeout; abandoned, its items count as unwritten.
    while (this.draining !== undefined && !this.abandoned) {
      await Promise.race([this.draining, this.abandonment]);
    }
    clock.clearTimeout(deadline);
    const unwritten = this.buffer.pending;
    if (unwritten > 0) throw new UnwrittenItemsError(name, unwritten, noun, { cause: this.outage.lastError });
  }

  /** Drains when a batch is due, or sets the timer for when the buffered items will be. */
  private schedule(): void {
    if (this.draining !== undefined || this.abandoned) return;
    if (this.buffer.due(this.stopping)) {
      this.draining = this.drain().finally(() => {
        this.draining = undefined;
        this.schedule();
      });
      return;
    }
    if (this.buffer.buffered > 0 && this.timer === undefined) {
      this.timer = this.options.clock.setTimeout(
        () => {
          this.timer = undefined;
          this.schedule();
        },
        Math.max(0, this.buffer.msUntilDue()),
      );
    }
  }

  private async drain(): Promise<void> {
    if (this.timer !== undefined) {
      this.options.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.buffer.due(this.stopping) && !this.abandoned) {
      const batch = this.buffer.takeBatch();
      const rejected = await this.writes.write(batch);
      if (this.abandoned) {
        this.buffer.returnBatch();
      } else {
        this.written += batch.items.length - rejected;
        this.options.onDone?.(batch.items);
        this.space.freed();
        this.buffer.finishBatch();
      }
    }
  }
}
