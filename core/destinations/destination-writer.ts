/**
 * The error a DestinationWriter (core/ports.ts) throws when a batch, or part of it, was not
 * stored: which events, and whether writing them again could ever succeed.
 */
import type { AcceptedEvent } from "../audit/accepted-event.ts";

export class DestinationWriteError extends Error {
  override name = "DestinationWriteError";
  constructor(
    readonly destination: string,
    /** The events of the batch that were not stored (all of them unless the writer knows better). */
    readonly failedEvents: readonly AcceptedEvent[],
    options: { cause: unknown; permanent?: boolean },
  ) {
    super(`${destination}: ${failedEvents.length} event(s) not written: ${describeCause(options.cause)}`, {
      cause: options.cause,
    });
    this.permanent = options.permanent ?? false;
  }

  /**
   * True when the destination refused these events' data itself (e.g. InfluxDB rejecting a
   * point): writing them again cannot succeed. Everything else in the batch was written.
   */
  readonly permanent: boolean;
}

function describeCause(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
