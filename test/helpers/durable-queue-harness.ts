/**
 * The durable audit queue over a real durable log in a directory, for its unit tests: numbered
 * events (the number is in the eventId, so order and duplicates can be read back) and a queue
 * whose two destinations record what they are handed.
 */
import { createDurableEventQueue } from "../../core/adapters/local/durable-queue/durable-event-queue.ts";
import { openDurableLog } from "../../core/adapters/local/durable-queue/durable-log.ts";
import type { AcceptedEvent } from "../../core/audit/accepted-event.ts";
import type { Clock, EnqueueResult } from "../../core/ports.ts";
import { systemClock } from "../../core/system-clock.ts";
import { type RecordingLogger, recordingLogger } from "./recording-logger.ts";

export const QUEUE_DESTINATIONS = ["parquet", "json"] as const;

/** Event number `n`, with `pad` as its payload's only field when given. */
export function numberedEvent(n: number, pad?: string): AcceptedEvent {
  return {
    envelope: {
      schemaVersion: 1,
      eventId: `0b6f2b4e-1c1d-4d3e-9a7b-${String(n).padStart(12, "0")}`,
      timestamp: "2026-01-01T00:00:00Z",
      type: "audit.event",
      payload: pad === undefined ? {} : { pad },
    },
    receivedAt: "2026-01-01T00:00:00.000Z",
    clientIp: "127.0.0.1",
  };
}

/** The number a numberedEvent was made with. */
export const eventNumber = (event: AcceptedEvent) => Number(event.envelope.eventId.slice(-12));

export interface DurableQueueHarnessOptions {
  maxDiskBytes: number;
  /** Default: the log's own (maxDiskBytes / 8, at least 64 KiB). */
  segmentBytes?: number;
  logger?: RecordingLogger;
  /** Default: the system clock. */
  clock?: Clock;
  /** Runs as each event is handed to a destination, after it is recorded; the hand-over waits for it. */
  onDeliver?: (destination: string, event: AcceptedEvent) => Promise<void> | undefined;
}

/** A queue over a log in `directory`; each destination's deliveries are recorded in `delivered`. */
export async function startDurableQueue(directory: string, options: DurableQueueHarnessOptions) {
  const logger = options.logger ?? recordingLogger();
  const clock = options.clock ?? systemClock;
  const log = await openDurableLog({
    directory,
    destinations: QUEUE_DESTINATIONS,
    maxDiskBytes: options.maxDiskBytes,
    ...(options.segmentBytes === undefined ? {} : { segmentBytes: options.segmentBytes }),
    cursorSyncMs: 1,
    clock,
    logger,
  });
  const delivered: Record<string, AcceptedEvent[]> = { parquet: [], json: [] };
  const queue = createDurableEventQueue(
    { backpressureThreshold: 100, rateLimit: { enable: false, maxPerMinute: 600 } },
    {
      log,
      destinations: QUEUE_DESTINATIONS,
      deliver: async (destination, event) => {
        delivered[destination]?.push(event);
        await options.onDeliver?.(destination, event);
      },
      logger,
      clock,
    },
  );
  const shutdown = async () => {
    await queue.stop();
    await log.close();
  };
  return { queue, log, delivered, logger, shutdown };
}

export type DurableQueueHarness = Awaited<ReturnType<typeof startDurableQueue>>;

/**
 * Enqueues numbered events from `from` on until one is not queued (at most 10,000); json writes
 * each event as it comes, parquet nothing. Returns how many were taken and the answer that ended
 * it ("queued" only if the bound was reached).
 */
export async function fillWhileParquetIsBehind(
  { queue, delivered }: DurableQueueHarness,
  from = 1,
): Promise<{ taken: number; answer: EnqueueResult }> {
  let taken = 0;
  for (;;) {
    const answer = await queue.enqueue(numberedEvent(from + taken));
    if (answer !== "queued" || taken === 10_000) return { taken, answer };
    taken += 1;
    await queue.drain();
    queue.written("json", delivered.json ?? []);
  }
}
