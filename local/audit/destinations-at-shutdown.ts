/**
 * The audit destinations as the local runtime stops them, within the shutdown budget
 * (local/shutdown-budget.ts): at its `destinations` time every destination still writing is
 * abandoned (its write in flight no longer awaited), and what was not written is reported once:
 * - With the durable queue it stays in the log and is written after the next start: a WARN per
 *   destination, with how much of the log it has not written. Nothing is lost; the exit status
 *   stays 0.
 * - Without it, it is lost: one ERROR with the count per destination, and the exit status is 1.
 */
import { type AuditDestinations, UnwrittenEventsError } from "../../core/destinations/index.ts";
import type { Logger, Stoppable } from "../../core/ports.ts";
import { SHUTDOWN_BUDGET_MS, type ShutdownSchedule } from "../shutdown-budget.ts";

export interface DestinationsAtShutdownOptions {
  shutdown: ShutdownSchedule | undefined;
  /** Whether what was not written stays in the durable queue's log. */
  durable: boolean;
  /** Bytes of the durable log each destination has not written (undefined while the log is closed). */
  backlog(): Record<string, { behindBytes: number }> | undefined;
  logger: Logger;
}

/** Events each destination did not write, from stop()'s rejection; undefined for any other error. */
function unwrittenByDestination(error: unknown): Map<string, number> | undefined {
  const errors = error instanceof AggregateError ? error.errors : [error];
  const counts = new Map<string, number>();
  for (const each of errors) {
    if (!(each instanceof UnwrittenEventsError)) return undefined;
    counts.set(each.destination, (counts.get(each.destination) ?? 0) + each.unwritten);
  }
  return counts;
}

export function stopDestinationsWithinBudget(
  destinations: AuditDestinations,
  options: DestinationsAtShutdownOptions,
): Stoppable {
  const { logger } = options;
  options.shutdown?.at(SHUTDOWN_BUDGET_MS.destinations, () => destinations.abandon());
  return {
    async stop() {
      try {
        await destinations.stop();
      } catch (error) {
        const unwritten = unwrittenByDestination(error);
        if (unwritten === undefined) throw error;
        if (!options.durable) {
          options.shutdown?.markEventsLost();
          logger.error(
            "Audit events could not be written before shutdown and are lost (without the durable queue they were held in memory only)",
            Object.fromEntries(unwritten),
          );
          return;
        }
        const backlog = options.backlog();
        for (const destination of unwritten.keys()) {
          const behindBytes = backlog?.[destination]?.behindBytes;
          logger.warn(
            "Audit destination not done writing within the shutdown time; what it had not written stays in the queue's log and is written after the next start",
            { destination, ...(behindBytes === undefined ? {} : { behindBytes }) },
          );
        }
      }
    },
  };
}
