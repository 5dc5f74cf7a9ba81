/**
 * The audit destinations and the durable queue need each other: the queue hands the destinations
 * what its log holds, and the destinations tell the queue what they wrote, so that it moves their
 * cursors. The destinations start first, since the queue hands them what an earlier run left
 * unwritten as soon as the log opens; they reach the queue through this link, which is joined to
 * it once it exists. Until then they have been handed nothing, so they have nothing to report,
 * and at shutdown there is no log to report a backlog from.
 */
import type { RecoveringEventQueue } from "../../core/adapters/local/durable-queue/recovering-event-queue.ts";
import type { AcceptedEvent } from "../../core/audit/index.ts";

export interface DurableQueueLink {
  /** A destination wrote these events (`onDone` of the destinations). */
  written(destination: string, events: readonly AcceptedEvent[]): void;
  /** Bytes of the log each destination has not written (undefined while the log is closed). */
  backlog(): Record<string, { behindBytes: number }> | undefined;
  /** Joins the link to the queue, once it is built over the running destinations. */
  join(queue: Pick<RecoveringEventQueue, "written" | "usage">): void;
}

export function createDurableQueueLink(): DurableQueueLink {
  let queue: Pick<RecoveringEventQueue, "written" | "usage"> | undefined;
  return {
    written: (destination, events) => queue?.written(destination, events),
    backlog: () => queue?.usage()?.destinations,
    join(joined) {
      queue = joined;
    },
  };
}
