/**
 * Buffers items of any kind (audit events, points, observability events) for one destination
 * and writes them in batches: when `maxBatchSize` items are buffered or `writeFrequency` ms after
 * the first buffered item, whichever comes first (`writeFrequency: 0` = every item; CONTRACT §4).
 * A batch that fails is kept, whole and with the same id, and written again after a backoff that
 * doubles per failure; failures are counted, and logged as a WARN naming the destination at most
 * once a minute (the first failure of an outage at once, then one line a minute with how many
 * failed writes it stands for; the others at DEBUG), and an INFO line says when writes resume.
 *
 * A refusal is not an outage: items the destination refuses as data (the write's error says
 * which, how many and why) are counted as rejected at once, by reason, and never written again,
 * without a backoff, so they hold up neither the items behind them nor a shutdown; the rest of
 * the batch counts as written. Each refusal is logged as an ERROR naming the destination, the
 * reason and the first refused items, at most one line a minute per reason (the first at once,
 * then with the count since the last line; the others at DEBUG), and kept nowhere else
 * (refusal-tally.ts, shared with the other writers).
 *
 * `add()` waits while `maxBuffered` items are pending: backpressure towards the caller. With
 * `maxWaitMs` the wait is bounded: past it, `add()` throws BufferFullError, and keeps throwing at
 * once until a batch leaves the buffer, so an outage costs a caller one bounded wait, not one per
 * item. `onDone` hears of every batch the destination is done with, in order. `stop()` flushes;
 * if the destination is not done within `stopTimeoutMs` (or `abandon()` comes first) it gives up
 * without waiting for the write in flight, and rejects with UnwrittenItemsError naming how many
 * items were not written.
 */

import { createLogThrottle } from "../logging/log-throttle.ts";
import type { Clock, LogFields, Logger, Stoppable, TimerHandle } from "../ports.ts";
import { newBatchId } from "./batch-id.ts";
import { describeError } from "./describe-error.ts";
import { createRefusalTally, type LastRefusal } from "./refusal-tally.ts";

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
  const { name, noun, clock, logger } = options;
  const maxBatchSize = Math.max(1, options.maxBatchSize);
  const initialRetryDelayMs = options.initialRetryDelayMs ?? 1000;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
  const maxBuffered = Math.max(options.maxBuffered ?? maxBatchSize * 10, maxBatchSize);
  const stopTimeoutMs = options.stopTimeoutMs ?? 8000;

  const buffer: T[] = [];
  let current: ItemBatch<T> | undefined;
  let firstBufferedAt: number | undefined;
  let timer: TimerHandle | undefined;
  let draining: Promise<void> | undefined;
  let stopping = false;
  let abandoned = false;
  let settleAbandonment: () => void = () => undefined;
  /** Resolves once abandoned: stop() waits for the write in flight or this, whichever comes first. */
  const abandonment = new Promise<void>((resolve) => {
    settleAbandonment = resolve;
  });
  /** A bounded wait for space ran out and no batch has left the buffer since. */
  let overflowing = false;
  let lastError: unknown;
  let wakeRetry: (() => void) | undefined;
  let spaceWaiters: (() => void)[] = [];
  const stats = { written: 0, failedWrites: 0 };
  const refusals = createRefusalTally({
    logger,
    message: `destination refused ${noun}; not written there, not retried`,
    fields: { destination: name },
  });
  const failureLog = createLogThrottle();
  /** Failed writes since the last successful one (an outage in progress). */
  let failingSince = 0;

  const pending = () => buffer.length + (current?.items.length ?? 0);
  const due = () =>
    buffer.length > 0 &&
    (stopping ||
      options.writeFrequency <= 0 ||
      buffer.length >= maxBatchSize ||
      clock.now() - (firstBufferedAt ?? clock.now()) >= options.writeFrequency);

  function wakeSpaceWaiters(): void {
    overflowing = false;
    const waiters = spaceWaiters;
    spaceWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves true when space may have freed, false when `maxWaitMs` passed first. */
  function waitForSpace(): Promise<boolean> {
    return new Promise((resolve) => {
      let deadline: TimerHandle | undefined;
      const wake = () => {
        if (deadline !== undefined) clock.clearTimeout(deadline);
        resolve(true);
      };
      spaceWaiters.push(wake);
      if (options.maxWaitMs !== undefined) {
        deadline = clock.setTimeout(() => {
          spaceWaiters = spaceWaiters.filter((waiter) => waiter !== wake);
          resolve(false);
        }, options.maxWaitMs);
      }
    });
  }

  function abandon(): void {
    if (abandoned) return;
    abandoned = true;
    stopping = true;
    wakeRetry?.();
    wakeSpaceWaiters();
    settleAbandonment();
  }

  function schedule(): void {
    if (draining !== undefined || abandoned) return;
    if (due()) {
      draining = drain().finally(() => {
        draining = undefined;
        schedule();
      });
      return;
    }
    if (buffer.length > 0 && timer === undefined) {
      const wait = options.writeFrequency - (clock.now() - (firstBufferedAt ?? clock.now()));
      timer = clock.setTimeout(
        () => {
          timer = undefined;
          schedule();
        },
        Math.max(0, wait),
      );
    }
  }

  async function drain(): Promise<void> {
    if (timer !== undefined) {
      clock.clearTimeout(timer);
      timer = undefined;
    }
    while (due() && !abandoned) {
      const items = buffer.splice(0, maxBatchSize);
      firstBufferedAt = buffer.length > 0 ? clock.now() : undefined;
      current = { id: newBatchId(), flushedAt: new Date(clock.now()), items };
      const rejected = await writeWithRetry(current);
      if (abandoned) {
        buffer.unshift(...current.items);
      } else {
        stats.written += items.length - rejected;
        options.onDone?.(items);
        wakeSpaceWaiters();
      }
      current = undefined;
    }
  }

  /** Resolves with the number of items the destination refused outright. */
  async function writeWithRetry(batch: ItemBatch<T>): Promise<number> {
    let delay = initialRetryDelayMs;
    for (;;) {
      try {
        await options.write(batch);
        if (failingSince > 0) {
          logger.info(`writing ${noun} resumed`, { destination: name, failedWrites: failingSince });
          failingSince = 0;
        }
        return 0;
      } catch (error) {
        options.onWriteError?.(error);
        const refused = options.refusal(error, batch);
        if (refused !== undefined) {
          if (failingSince > 0) {
            logger.info(`writing ${noun} resumed`, { destination: name, failedWrites: failingSince });
            failingSince = 0;
          }
          return countRefusals(refused, batch.items.length, error);
        }
        stats.failedWrites += 1;
        failingSince += 1;
        lastError = error;
        const failedWrites = failureLog.admit("write failed", clock.now());
        const fields = {
          destination: name,
          items: batch.items.length,
          retryInMs: delay,
          error: describeError(error),
        };
        if (failedWrites === undefined) logger.debug(`writing ${noun} failed; will retry`, fields);
        else logger.warn(`writing ${noun} failed; will retry`, { ...fields, failedWrites });
        if (abandoned) return 0;
        await new Promise<void>((resolve) => {
          const handle = clock.setTimeout(resolve, delay);
          wakeRetry = () => {
            clock.clearTimeout(handle);
            resolve();
          };
        });
        wakeRetry = undefined;
        if (abandoned) return 0;
        delay = Math.min(delay * 2, maxRetryDelayMs);
      }
    }
  }

  /** Counts and logs the refusals; resolves with how many items of the batch they refused. */
  function countRefusals(refused: readonly Refusal[], batchSize: number, error: unknown): number {
    let total = 0;
    for (const refusal of refused) {
      const count = Math.min(Math.max(0, refusal.count), batchSize - total);
      total += count;
      const detail = refusal.detail ?? describeError(error);
      refusals.note({ reason: refusal.reason, count, detail, fields: refusal.fields }, clock.now());
    }
    return total;
  }

  return {
    async add(item) {
      while (!stopping && pending() >= maxBuffered) {
        if (overflowing || !(await waitForSpace())) {
          overflowing = true;
          throw new BufferFullError(name, maxBuffered);
        }
      }
      if (stopping) throw new BatcherStoppedError(`${name} writer is stopping; ${noun} not accepted`);
      if (buffer.length === 0) firstBufferedAt = clock.now();
      buffer.push(item);
      schedule();
    },

    stats: () => ({ buffered: pending(), ...stats, ...refusals.counts() }),

    abandon,

    async stop() {
      if (!stopping) {
        stopping = true;
        wakeSpaceWaiters();
      }
      const deadline = clock.setTimeout(abandon, stopTimeoutMs);
      schedule();
      // Never past the deadline: a write in flight (a request to a server that stopped answering)
      // may hang until its own timeout; abandoned, its items count as unwritten.
      while (draining !== undefined && !abandoned) await Promise.race([draining, abandonment]);
      clock.clearTimeout(deadline);
      if (pending() > 0) throw new UnwrittenItemsError(name, pending(), noun, { cause: lastError });
    },
  };
}
