/**
 * What an audit destination did not store of one batch, gathered while it writes, and the one
 * DestinationWriteError that reports it at the end (or none, when it stored everything):
 *
 * - Refusals, by reason: events the destination will never be able to store, e.g. one whose
 *   data it cannot encode (`unencodable`: JSON nested too deeply for JSON.stringify, a text a
 *   table file cannot hold) or one the server refused. Each is named once, counted and never
 *   written again, and holds up nothing else of the batch.
 * - An outage: events not stored because the disk, the bucket or the server failed. They are
 *   written again later.
 *
 * A batch with refusals and an outage is reported as the outage, so that it keeps its meaning
 * for the unwritten events: the error names only them, and carries the refusals beside them.
 * Locally the batcher writes the whole batch again, which meets the same refusals again and
 * reports them once the outage is over (counted then, once); the cloud consumer acknowledges the
 * refused events (their messages never come back) and counts their refusals at once.
 */
import type { AcceptedEvent } from "../audit/index.ts";
import { describeError } from "../shared/describe-error.ts";
import { type DestinationRefusal, DestinationWriteError } from "./destination-write-error.ts";

/** The refusal reason of an event a destination cannot turn into what it stores. */
export const UNENCODABLE = "unencodable";

export class UnwrittenEvents {
  private readonly refusals: DestinationRefusal[] = [];
  private readonly outageEvents: AcceptedEvent[] = [];
  private outageCause: unknown;

  constructor(private readonly destination: string) {}

  /** The destination will never store these events, for `refusal.reason`. */
  refuse(refusal: DestinationRefusal): void {
    if (refusal.count > 0) this.refusals.push(refusal);
  }

  /** `event` cannot be encoded for the destination: `error` says why. */
  unencodable(event: AcceptedEvent, error: unknown): void {
    this.refuse({ reason: UNENCODABLE, count: 1, detail: describeError(error), events: [event] });
  }

  /** These events were not stored because of an outage (the first cause is kept). */
  outage(events: readonly AcceptedEvent[], cause: unknown): void {
    if (this.outageEvents.length === 0) this.outageCause = cause;
    this.outageEvents.push(...events);
  }

  /** Throws the DestinationWriteError for what was not stored; returns when everything was. */
  throwIfAny(): void {
    const refusals = mergeByReason(this.refusals);
    if (this.outageEvents.length > 0) {
      throw new DestinationWriteError(this.destination, this.outageEvents, {
        cause: this.outageCause,
        ...(refusals.length === 0 ? {} : { refusals }),
      });
    }
    if (refusals.length === 0) return;
    const named = refusals.flatMap((refusal) => refusal.events);
    const cause = new Error(refusals.map((refusal) => `${refusal.reason}: ${refusal.detail}`).join("; "));
    throw new DestinationWriteError(this.destination, named, { cause, refused: true, refusals });
  }
}

/** One refusal per reason: counts added, named events joined, the first detail kept. */
function mergeByReason(refusals: readonly DestinationRefusal[]): DestinationRefusal[] {
  const merged = new Map<string, DestinationRefusal>();
  for (const refusal of refusals) {
    const known = merged.get(refusal.reason);
    merged.set(
      refusal.reason,
      known === undefined
        ? refusal
        : { ...known, count: known.count + refusal.count, events: [...known.events, ...refusal.events] },
    );
  }
  return [...merged.values()];
}
