/**
 * The error a AuditDestination (core/ports.ts) throws when a batch, or part of it, was not
 * stored: which events, and whether writing them again could ever succeed.
 */
import type { AcceptedEvent } from "../audit/index.ts";

/** Events a destination refused as data for one reason (e.g. InfluxDB's retention policy). */
export interface DestinationRefusal {
  /** A short label, e.g. `beyond_retention` (timeseries-refusal.ts). */
  readonly reason: string;
  /** How many events it refused (exact as far as the destination counts them). */
  readonly count: number;
  /** The destination's own words. */
  readonly detail: string;
  /** The refused events it can name: best effort, at most `count`. */
  readonly events: readonly AcceptedEvent[];
}

export interface DestinationWriteErrorOptions {
  cause: unknown;
  refused?: boolean;
  /**
   * With `refused`: why and how many, per reason (absent: all of failedEvents, reason `other`).
   * Without it (an outage): events of the batch the destination refused besides, which are not
   * among failedEvents (unwritten-events.ts says who counts them when).
   */
  refusals?: readonly DestinationRefusal[];
}

export class DestinationWriteError extends Error {
  override name = "DestinationWriteError";
  constructor(
    readonly destination: string,
    /** The events of the batch that were not stored (all of them unless the writer knows better). */
    readonly failedEvents: readonly AcceptedEvent[],
    options: DestinationWriteErrorOptions,
  ) {
    super(`${destination}: ${failedEvents.length} event(s) not written: ${describeCause(options.cause)}`, {
      cause: options.cause,
    });
    this.refused = options.refused ?? false;
    this.refusals = options.refusals;
  }

  /**
   * True when the destination refused these events' data itself (e.g. InfluxDB rejecting a
   * point): writing them again cannot succeed. Everything else in the batch was written.
   */
  readonly refused: boolean;
  readonly refusals: readonly DestinationRefusal[] | undefined;
}

/** How many eventIds a refusal's log line names. */
const NAMED_EVENT_IDS = 5;

/**
 * The refusals a refused DestinationWriteError stands for, one per reason: its own, or else
 * every event it names, for reason `other`.
 */
export function refusalsOf(error: DestinationWriteError): readonly DestinationRefusal[] {
  return (
    error.refusals ?? [
      {
        reason: "other",
        count: error.failedEvents.length,
        detail: error.message,
        events: error.failedEvents,
      },
    ]
  );
}

/** The first eventIds of a refusal, for its log line (comma-separated). */
export function refusedEventIds(refusal: DestinationRefusal): string {
  return eventIdsOf(refusal.events);
}

/** The first eventIds of `events`, for a log line (comma-separated). */
export function eventIdsOf(events: readonly AcceptedEvent[]): string {
  return events
    .slice(0, NAMED_EVENT_IDS)
    .map((event) => event.envelope.eventId)
    .join(",");
}

function describeCause(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
