/**
 * The consume use case of the cloud consumer: one batch of accepted events (an SQS batch) goes
 * to every selected destination; the answer names the events some destination could not store because of
 * an outage, so that only their messages are retried. Retries are at-least-once: a destination that
 * had succeeded writes a retried event again (InfluxDB overwrites the identical point).
 *
 * A refusal is not an outage, in the cloud as locally: events a destination refuses as data
 * (InfluxDB: beyond its retention policy, a field type conflict, …) are not failed — retried, SQS
 * would only deliver them again until the dead-letter queue — but acknowledged, and counted and
 * logged by destination and reason as the local destinations do (refusal-tally.ts): an ERROR naming
 * the first eventIds, at most once a minute per destination and reason in a function instance,
 * with the count since the previous line. Everything else of the batch was stored.
 */

import type { AcceptedEvent } from "../audit/accepted-event.ts";
import type { AuditDestination, Logger } from "../ports.ts";
import { newBatchId } from "./batch-id.ts";
import { describeError } from "./describe-error.ts";
import { DestinationWriteError, refusalsOf, refusedEventIds } from "./destination-write-error.ts";
import { createRefusalTally, type RefusalTally } from "./refusal-tally.ts";

export interface ConsumeOutcome {
  /** Events at least one destination did not store because of an outage: their messages are retried. */
  failed: Set<AcceptedEvent>;
  /** What the destinations refused as data, by destination and reason: acknowledged, never retried. */
  refused: { destination: string; reason: string; count: number }[];
}

export interface ConsumeOptions {
  now: Date;
  logger: Logger;
  /**
   * Where each destination's refusals are counted and logged: the same tally for every batch of
   * a function instance, so that its log lines are throttled across batches (default: a new one
   * per batch).
   */
  refusals?: (destination: string) => RefusalTally;
}

export async function consumeEvents(
  destinations: readonly AuditDestination[],
  events: readonly AcceptedEvent[],
  { now, logger, refusals = refusalTallies(logger) }: ConsumeOptions,
): Promise<ConsumeOutcome> {
  const failed = new Set<AcceptedEvent>();
  const refused: ConsumeOutcome["refused"] = [];
  if (events.length === 0) return { failed, refused };
  const batch = { id: newBatchId(), flushedAt: now, events };
  const results = await Promise.allSettled(destinations.map((destination) => destination.write(batch)));
  results.forEach((result, i) => {
    if (result.status === "fulfilled") return;
    const error = result.reason;
    const destination = destinations[i]?.name ?? "unknown";
    if (error instanceof DestinationWriteError && error.refused) {
      for (const refusal of refusalsOf(error)) {
        const { reason, count, detail } = refusal;
        refusals(destination).note(
          { reason, count, detail, fields: { eventIds: refusedEventIds(refusal) } },
          now.getTime(),
        );
        refused.push({ destination, reason, count });
      }
      return;
    }
    const failedEvents = error instanceof DestinationWriteError ? error.failedEvents : events;
    for (const event of failedEvents) failed.add(event);
    logger.error("audit destination write failed; the events will be retried", {
      destination,
      events: failedEvents.length,
      error: describeError(error),
    });
  });
  return { failed, refused };
}

/** One refusal tally per destination, logging as the local audit destinations do. */
export function refusalTallies(logger: Logger): (destination: string) => RefusalTally {
  const tallies = new Map<string, RefusalTally>();
  return (destination) => {
    let tally = tallies.get(destination);
    if (tally === undefined) {
      tally = createRefusalTally({
        logger,
        message: "destination refused audit events; not written there, not retried",
        fields: { destination },
      });
      tallies.set(destination, tally);
    }
    return tally;
  };
}
