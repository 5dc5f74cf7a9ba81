/**
 * Every time-series writer but the audit destinations, as the local runtime stops them within the
 * shutdown budget (shutdown-budget.ts): the agent's destinations (points, and the broker and
 * observability destinations beside them) and the periodic writers of interval counters. At the
 * budget's `pointWriters` time each one still writing is abandoned — its write in flight no longer
 * awaited, nothing more written — so that, stopped one after another, they cannot eat the time the
 * audit destinations need, whatever their database does.
 *
 * What an abandoned writer had not written is said once: one ERROR per writer and destination
 * with the count (a periodic writer says it itself, periodic-writer.ts). These are points, not
 * audit events: they are lost, and the exit status stays 0.
 */
import { UnwrittenItemsError } from "../core/destinations/index.ts";
import type { Logger, Stoppable } from "../core/ports.ts";
import { SHUTDOWN_BUDGET_MS, type ShutdownSchedule } from "./shutdown-budget.ts";

/** A writer the shutdown can give up on (AgentEventDestinations, PeriodicWriter). */
export interface AbandonableWriter extends Stoppable {
  abandon(): void;
}

export interface PointWriterAtShutdownOptions {
  shutdown: ShutdownSchedule | undefined;
  /** The part the writer belongs to, named in the ERROR line (`user_events`, `uptime`, …). */
  part: string;
  logger: Logger;
}

export function stopPointWriterWithinBudget(
  writer: AbandonableWriter,
  options: PointWriterAtShutdownOptions,
): Stoppable {
  const { part, logger } = options;
  options.shutdown?.at(SHUTDOWN_BUDGET_MS.pointWriters, () => writer.abandon());
  return {
    async stop() {
      try {
        await writer.stop();
      } catch (error) {
        const unwritten = unwrittenItems(error);
        if (unwritten === undefined) throw error;
        for (const { destination, unwritten: count, noun } of unwritten) {
          logger.error(
            "agent destination not done writing before shutdown; what it had not written is lost",
            {
              part,
              destination,
              unwritten: count,
              items: noun,
            },
          );
        }
      }
    },
  };
}

/** What each destination of stop()'s rejection did not write; undefined for any other error. */
function unwrittenItems(error: unknown): UnwrittenItemsError[] | undefined {
  const errors: unknown[] = error instanceof AggregateError ? error.errors : [error];
  return errors.every((each) => each instanceof UnwrittenItemsError)
    ? (errors as UnwrittenItemsError[])
    : undefined;
}
