/**
 * The consume use case of the cloud consumer: one batch of accepted events (an SQS batch) goes
 * to every selected writer; the answer names the events some writer could not store, so that
 * only their messages are retried. Retries are at-least-once: a writer that had succeeded
 * writes a retried event again (InfluxDB overwrites the identical point).
 */

import type { AcceptedEvent } from "../audit/accepted-event.ts";
import type { DestinationWriter, Logger } from "../ports.ts";
import { newBatchId } from "./batch-id.ts";
import { describeError } from "./describe-error.ts";
import { DestinationWriteError } from "./destination-writer.ts";

export interface ConsumeOutcome {
  /** Events at least one writer did not store. */
  failed: Set<AcceptedEvent>;
}

export async function consumeEvents(
  writers: readonly DestinationWriter[],
  events: readonly AcceptedEvent[],
  { now, logger }: { now: Date; logger: Logger },
): Promise<ConsumeOutcome> {
  const failed = new Set<AcceptedEvent>();
  if (events.length === 0) return { failed };
  const batch = { id: newBatchId(), flushedAt: now, events };
  const results = await Promise.allSettled(writers.map((writer) => writer.write(batch)));
  results.forEach((result, i) => {
    if (result.status === "fulfilled") return;
    const error = result.reason;
    const failedEvents = error instanceof DestinationWriteError ? error.failedEvents : events;
    for (const event of failedEvents) failed.add(event);
    logger.error("audit destination write failed; the events will be retried", {
      destination: writers[i]?.name,
      events: failedEvents.length,
      error: describeError(error),
    });
  });
  return { failed };
}
