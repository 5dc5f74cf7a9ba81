/**
 * Buffers accepted events for one destination writer and writes them in batches: when
 * `maxBatchSize` events are buffered or `writeFrequency` ms after the first buffered event,
 * whichever comes first (`writeFrequency: 0` = every event; CONTRACT §4). A failed batch stays
 * and is written again with exponential backoff; failures are logged and counted, never dropped.
 * Events a destination refuses as data are logged with their ids and counted as rejected.
 * `stop()` flushes everything; if the destination stays down past `stopTimeoutMs` it rejects
 * with UnwrittenEventsError naming how many events were not written.
 */
import type { AcceptedEvent } from "../audit/accepted-event.ts";
import type { Clock, Logger, Service, TimerHandle } from "../ports.ts";
import { newBatchId } from "./batch-id.ts";
import { describeError } from "./describe-error.ts";
import { type AuditBatch, DestinationWriteError, type DestinationWriter } from "./destination-writer.ts";

export interface BatchingOptions {
  maxBatchSize: number;
  /** ms since the first buffered event; 0 = write every event at once. */
  writeFrequency: number;
}

export interface BatcherOptions extends BatchingOptions {
  writer: DestinationWriter;
  clock: Clock;
  logger: Logger;
  /** First retry delay, doubled per failure up to maxRetryDelayMs. */
  initialRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** add() waits while this many events are buffered: backpressure towards the queue. */
  maxBuffered?: number;
  stopTimeoutMs?: number;
}

export interface BatcherStats {
  buffered: number;
  written: number;
  failedWrites: number;
  /** Events the destination refused as data (DestinationWriteError.permanent): logged, not retried. */
  rejected: number;
}

export interface Batcher extends Service {
  /** Buffers the event; resolves once it is buffered (waits while the buffer is full). */
  add(event: AcceptedEvent): Promise<void>;
  stats(): BatcherStats;
}

export class BatcherStoppedError extends Error {
  override name = "BatcherStoppedError";
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

export function startBatcher(options: BatcherOptions): Batcher {
  const { writer, clock, logger } = options;
  const maxBatchSize = Math.max(1, options.maxBatchSize);
  const initialRetryDelayMs = options.initialRetryDelayMs ?? 1000;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
  const maxBuffered = Math.max(options.maxBuffered ?? maxBatchSize * 10, maxBatchSize);
  const stopTimeoutMs = options.stopTimeoutMs ?? 8000;

  const buffer: AcceptedEvent[] = [];
  let current: AuditBatch | undefined;
  let firstBufferedAt: number | undefined;
  let timer: TimerHandle | undefined;
  let draining: Promise<void> | undefined;
  let stopping = false;
  let abandoned = false;
  let lastError: unknown;
  let wakeRetry: (() => void) | undefined;
  let spaceWaiters: (() => void)[] = [];
  const stats = { written: 0, failedWrites: 0, rejected: 0 };

  const pending = () => buffer.length + (current?.events.length ?? 0);
  const due = () =>
    buffer.length > 0 &&
    (stopping ||
      options.writeFrequency <= 0 ||
      buffer.length >= maxBatchSize ||
      clock.now() - (firstBufferedAt ?? clock.now()) >= options.writeFrequency);

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
      const events = buffer.splice(0, maxBatchSize);
      firstBufferedAt = buffer.length > 0 ? clock.now() : undefined;
      current = { id: newBatchId(), flushedAt: new Date(clock.now()), events };
      const rejected = await writeWithRetry(current);
      if (abandoned) {
        buffer.unshift(...current.events);
      } else {
        stats.written += events.length - rejected;
        const waiters = spaceWaiters;
        spaceWaiters = [];
        for (const wake of waiters) wake();
      }
      current = undefined;
    }
  }

  /** Resolves with the number of events the destination refused outright. */
  async function writeWithRetry(batch: AuditBatch): Promise<number> {
    let delay = initialRetryDelayMs;
    for (;;) {
      try {
        await writer.write(batch);
        return 0;
      } catch (error) {
        if (error instanceof DestinationWriteError && error.permanent) {
          stats.rejected += error.failedEvents.length;
          logger.error("destination refused audit events; they cannot be written there", {
            destination: writer.name,
            eventIds: error.failedEvents.map((event) => event.envelope.eventId).join(","),
            error: describeError(error),
          });
          return error.failedEvents.length;
        }
        stats.failedWrites += 1;
        lastError = error;
        logger.error("writing audit events failed; will retry", {
          destination: writer.name,
          events: batch.events.length,
          retryInMs: delay,
          error: describeError(error),
        });
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

  return {
    async add(event) {
      while (!stopping && pending() >= maxBuffered) {
        await new Promise<void>((resolve) => spaceWaiters.push(resolve));
      }
      if (stopping) throw new BatcherStoppedError(`${writer.name} writer is stopping; event not accepted`);
      if (buffer.length === 0) firstBufferedAt = clock.now();
      buffer.push(event);
      schedule();
    },

    stats: () => ({ buffered: pending(), ...stats }),

    async stop() {
      if (!stopping) {
        stopping = true;
        for (const wake of spaceWaiters) wake();
        spaceWaiters = [];
      }
      const deadline = clock.setTimeout(() => {
        abandoned = true;
        wakeRetry?.();
      }, stopTimeoutMs);
      schedule();
      while (draining !== undefined) await draining;
      clock.clearTimeout(deadline);
      if (pending() > 0) throw new UnwrittenEventsError(writer.name, pending(), { cause: lastError });
    },
  };
}
