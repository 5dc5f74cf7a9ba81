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
 * with the count since the previous line. Everything else of the batch was stored. Refusals a
 * destination met in a batch that also met an outage are counted at once too: only the events
 * of the outage come back.
 *
 * An error that is neither (not a DestinationWriteError: a fault such as a TypeError or a
 * RangeError) would come back with every redelivery, and SQS would send the whole batch, up to
 * 99 good events with it, to the dead-letter queue. So it is isolated at once, as locally after
 * a few writes (retrying-batch-write.ts): the batch is written again in halves (batch-halves.ts),
 * a half that fails so is halved again, down to the one event, which is refused as `unwritable`
 * and acknowledged; the rest is written. The redeliveries of SQS stay for outages.
 */

import type { AcceptedEvent } from "../audit/index.ts";
import type { AuditBatch, AuditDestination, Logger } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import { type BatchPart, halves, UNWRITABLE, wholeBatch } from "./batch-halves.ts";
import { newBatchId } from "./batch-id.ts";
import {
  type DestinationRefusal,
  DestinationWriteError,
  refusalsOf,
  refusedEventIds,
} from "./destination-write-error.ts";
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
  const outcome: ConsumeOutcome = { failed: new Set<AcceptedEvent>(), refused: [] };
  if (events.length === 0) return outcome;
  const batch = { id: newBatchId(), flushedAt: now, events };
  await Promise.all(
    destinations.map((destination) => {
      const noteRefusal = (refusal: DestinationRefusal) => {
        const { reason, count, detail } = refusal;
        refusals(destination.name).note(
          { reason, count, detail, fields: { eventIds: refusedEventIds(refusal) } },
          now.getTime(),
        );
        outcome.refused.push({ destination: destination.name, reason, count });
      };
      const fail = (failedEvents: readonly AcceptedEvent[], error: unknown) => {
        for (const event of failedEvents) outcome.failed.add(event);
        logger.error("audit destination write failed; the events will be retried", {
          destination: destination.name,
          events: failedEvents.length,
          error: describeError(error),
        });
      };
      return writePart(destination, batch, wholeBatch(batch.id, events), { noteRefusal, fail });
    }),
  );
  return outcome;
}

interface PartOutcome {
  noteRefusal(refusal: DestinationRefusal): void;
  fail(events: readonly AcceptedEvent[], error: unknown): void;
}

/** Writes `part` of `batch` to `destination`; a fault is isolated by halves (see the header). */
async function writePart(
  destination: AuditDestination,
  batch: AuditBatch,
  part: BatchPart<AcceptedEvent>,
  outcome: PartOutcome,
): Promise<void> {
  try {
    await destination.write({ id: part.id, flushedAt: batch.flushedAt, events: part.items });
    return;
  } catch (error) {
    if (error instanceof DestinationWriteError) {
      // A refusal, or an outage that may carry the refusals met beside it (unwritten-events.ts).
      if (error.refused) for (const refusal of refusalsOf(error)) outcome.noteRefusal(refusal);
      else {
        for (const refusal of error.refusals ?? []) outcome.noteRefusal(refusal);
        outcome.fail(error.failedEvents, error);
      }
      return;
    }
    if (part.items.length <= 1) {
      outcome.noteRefusal({ reason: UNWRITABLE, count: 1, detail: describeError(error), events: part.items });
      return;
    }
  }
  for (const half of halves(batch.id, part)) await writePart(destination, batch, half, outcome);
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
