/**
 * A destination fed in batches (time-series points, observability events): an item batcher plus the
 * agent's drop policy. `write` resolves once the items are buffered, waiting while the buffer is
 * full so that a slow destination is felt by the UDP queue (Butler SOS did not wait for its
 * destinations); past `maxWaitMs` the rest of the call is dropped, counted and reported by a WARN
 * naming the destination at most once a minute. Dropping again at once while the buffer stays full
 * keeps an outage from stalling the pipeline's other destinations.
 */

import {
  BufferFullError,
  type DestinationStats,
  type ItemBatch,
  type Refusal,
  startItemBatcher,
} from "../destinations/index.ts";
import type { LogThrottle } from "../logging/index.ts";
import type { Clock, Logger, Stoppable } from "../ports.ts";

/** Batching, buffering and retry settings of one destination. */
export interface DestinationTuning {
  maxBatchSize: number;
  /** ms after the first buffered item before a batch is written anyway. */
  maxAgeMs: number;
  /** Items pending before `write` waits. */
  maxBuffered: number;
  /** Longest wait for buffer space before items are dropped. */
  maxWaitMs: number;
  initialRetryDelayMs: number;
  maxRetryDelayMs: number;
  stopTimeoutMs: number;
}

export interface AgentDestination<T> extends Stoppable {
  /** Resolves once the items are buffered (or dropped by policy, counted and reported). */
  write(items: readonly T[]): Promise<void>;
  stats(): DestinationStats;
  /**
   * Gives up at once (the shutdown's deadline): nothing more is taken or written, the write in
   * flight is no longer awaited, and stop() rejects with UnwrittenItemsError for what is left.
   */
  abandon(): void;
}

export interface BatchedDestinationOptions<T> {
  destination: string;
  /** Plural noun for logs, e.g. "points". */
  noun: string;
  write(batch: ItemBatch<T>): Promise<void>;
  /** The refusals a write error stands for; undefined = an outage, write the batch again. */
  refusal(error: unknown, batch: ItemBatch<T>): readonly Refusal[] | undefined;
  /** Told of every failed write request (error tracking). */
  onWriteError?: ((error: unknown) => void) | undefined;
  /**
   * Told once of every item the destination is done with: written, refused as data, dropped by policy
   * or not taken because the destination is stopping (not of items still buffered when a stop gives up
   * on them).
   */
  release?: ((items: readonly T[]) => void) | undefined;
  tuning: DestinationTuning;
  clock: Clock;
  logger: Logger;
  throttle: LogThrottle;
}

export function startBatchedDestination<T>(options: BatchedDestinationOptions<T>): AgentDestination<T> {
  const { destination, noun, tuning, clock, logger, throttle } = options;
  let dropped = 0;
  let refusedWrites = 0;
  const batcher = startItemBatcher<T>({
    name: destination,
    noun,
    write: options.write,
    refusal(error, batch) {
      const refusal = options.refusal(error, batch);
      if (refusal !== undefined) refusedWrites += 1;
      return refusal;
    },
    onWriteError: options.onWriteError,
    onDone: options.release,
    maxBatchSize: tuning.maxBatchSize,
    writeFrequency: tuning.maxAgeMs,
    maxBuffered: tuning.maxBuffered,
    maxWaitMs: tuning.maxWaitMs,
    initialRetryDelayMs: tuning.initialRetryDelayMs,
    maxRetryDelayMs: tuning.maxRetryDelayMs,
    stopTimeoutMs: tuning.stopTimeoutMs,
    clock: options.clock,
    logger,
  });

  function drop(count: number): void {
    dropped += count;
    const since = throttle.admit(`${destination}:dropped`, clock.now(), count);
    if (since !== undefined) {
      logger.warn(`destination buffer full; dropping ${noun}`, {
        destination,
        dropped: since,
        maxBuffered: tuning.maxBuffered,
      });
    }
  }

  return {
    async write(items) {
      for (const [index, item] of items.entries()) {
        try {
          await batcher.add(item);
        } catch (error) {
          options.release?.(items.slice(index));
          if (!(error instanceof BufferFullError)) throw error;
          drop(items.length - index);
          return;
        }
      }
    },
    stats() {
      const { buffered, written, failedWrites, rejected, refused, lastRefusal } = batcher.stats();
      return {
        buffered,
        written,
        failedWrites: failedWrites + refusedWrites,
        dropped,
        rejected,
        ...(lastRefusal === undefined ? {} : { refused, lastRefusal }),
      };
    },
    stop: () => batcher.stop(),
    abandon: () => batcher.abandon(),
  };
}
