/**
 * A destination writer stores one batch of accepted events (Parquet files, QVD files, objectData
 * JSON files, InfluxDB points). Writing the same batch again is harmless — file names derive from
 * the batch id and flush time, and InfluxDB overwrites identical points — so a failed batch is
 * simply written again.
 */
import type { AcceptedEvent } from "../audit/accepted-event.ts";

export interface AuditBatch {
  /** Short unique id, part of file names; kept across retries of the same batch. */
  id: string;
  flushedAt: Date;
  events: readonly AcceptedEvent[];
}

export interface DestinationWriter {
  /** The destination's name in `auditEvents.destination.type`. */
  readonly name: string;
  /** Stores the batch; throws DestinationWriteError naming the events that were not stored. */
  write(batch: AuditBatch): Promise<void>;
  /** Creates what the destination needs (a database) before the first write; optional. */
  prepare?(): Promise<void>;
}

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
