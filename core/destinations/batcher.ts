/**
 * The audit batcher: the item batcher (item-batcher.ts) over accepted events, writing through an
 * AuditDestination. Events a destination refuses as data (DestinationWriteError.refused) are
 * logged by reason with the first of their eventIds, counted as rejected and never written again;
 * an outage (any other DestinationWriteError) keeps the batch for a retry, so locally no accepted
 * event is dropped without a word; any other error, a fault, is retried a few times and then
 * isolated to the events that cause it, refused as `unwritable` (retrying-batch-write.ts). Events
 * the destination skips by design (`skips`) are counted `skipped`, not written. `stop()`
 * flushes everything; if the destination is not done within `stopTimeoutMs` (or is abandoned
 * first) it rejects with UnwrittenEventsError.
 */

import type { AcceptedEvent } from "../audit/index.ts";
import type { AuditDestination, Clock, Logger, Stoppable } from "../ports.ts";
import { DestinationWriteError, eventIdsOf, refusalsOf, refusedEventIds } from "./destination-write-error.ts";
import {
  type BatchingOptions,
  type ItemBatcherStats,
  type Refusal,
  startItemBatcher,
  UnwrittenItemsError,
} from "./item-batcher.ts";

export type { BatchingOptions } from "./item-batcher.ts";
export { BatcherStoppedError } from "./item-batcher.ts";

export interface BatcherOptions extends BatchingOptions {
  destination: AuditDestination;
  clock: Clock;
  logger: Logger;
  /** First retry delay, doubled per failure up to maxRetryDelayMs. */
  initialRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** add() waits while this many events are buffered: backpressure towards the queue. */
  maxBuffered?: number;
  stopTimeoutMs?: number;
  /** Hears of each batch the destination is done with (written or refused), in order. */
  onDone?: (events: readonly AcceptedEvent[]) => void;
  /** Told of every failed write (the status page's last error). Must not throw. */
  onWriteError?: (error: unknown) => void;
}

export interface BatcherStats extends ItemBatcherStats {
  /** Of a destination that skips events by design: how many events of its batches it skipped, and why. */
  skipped?: { readonly events: number; readonly why: string };
}

export interface Batcher extends Stoppable {
  /** Buffers the event; resolves once it is buffered (waits while the buffer is full). */
  add(event: AcceptedEvent): Promise<void>;
  stats(): BatcherStats;
  /** Gives up at once (the shutdown's deadline); stop() then rejects for what was not written. */
  abandon(): void;
}

export class UnwrittenEventsError extends Error {
  override name = "UnwrittenEventsError";
  constructor(
    readonly destination: string,
    readonly unwritten: number,
    options?: { cause: unknown },
  ) {
    super(`${destination}: ${unwritten} event(s) could not be written before shutdown`, options);
  }
}

function refusals(error: DestinationWriteError): Refusal[] {
  return refusalsOf(error).map((refusal) => ({
    reason: refusal.reason,
    count: refusal.count,
    detail: refusal.detail,
    fields: { eventIds: refusedEventIds(refusal) },
  }));
}

export function startBatcher(options: BatcherOptions): Batcher {
  const { destination, onDone, ...rest } = options;
  const skips = destination.skips;
  let skipped = 0;
  const batcher = startItemBatcher<AcceptedEvent>({
    ...rest,
    // A batch done is written but for its refusals, which are never among the events skipped.
    onDone(events) {
      if (skips !== undefined) for (const event of events) if (skips.event(event)) skipped += 1;
      onDone?.(events);
    },
    name: destination.name,
    noun: "audit events",
    write: (batch) => destination.write({ id: batch.id, flushedAt: batch.flushedAt, events: batch.items }),
    refusal: (error) =>
      error instanceof DestinationWriteError && error.refused ? refusals(error) : undefined,
    // Audit destinations report every outage as a DestinationWriteError (refusal-less); anything
    // else they throw is a fault, isolated to the events that cause it.
    isOutage: (error) => error instanceof DestinationWriteError,
    nameItems: (events) => ({ eventIds: eventIdsOf(events) }),
  });
  return {
    add: (event) => batcher.add(event),
    stats() {
      const stats = batcher.stats();
      if (skips === undefined) return stats;
      return { ...stats, written: stats.written - skipped, skipped: { events: skipped, why: skips.why } };
    },
    abandon: () => batcher.abandon(),
    async stop() {
      try {
        await batcher.stop();
      } catch (error) {
        if (!(error instanceof UnwrittenItemsError)) throw error;
        throw new UnwrittenEventsError(error.destination, error.unwritten, { cause: error.cause });
      }
    },
  };
}
