/**
 * Sends the server licence's events to their destinations and says what each did: every answer
 * is counted in `steward_alerts_total{destination,kind,outcome}` (shared with the task alerts)
 * and in the destination's totals, which carry its last error for the status page. A destination
 * that throws is counted `failed` and logged at ERROR with the reason; it never holds up the
 * others. The monitor runs every few hours, so every failure gets its own line.
 */

import type { Clock, Logger, MetricsRegistry } from "../../ports.ts";
import { describeError } from "../../shared/describe-error.ts";
import type { AlertOutcome } from "../../task-events/alert-destination.ts";
import { type AlertDestinationTotals, addToTotals, emptyTotals } from "../../task-events/dispatch-alert.ts";
import { alertOutcomeCounts } from "../alert-outcome-counts.ts";
import type { LicenceDestination } from "./licence-destination.ts";

export interface LicenceDispatch {
  /** Sends `value` to every destination at once; resolves when all have answered, never rejects. */
  send<T>(destinations: readonly LicenceDestination<T>[], value: T): Promise<AlertOutcome[]>;
  /** One destination's totals since start. */
  totals(destination: LicenceDestination<unknown>): AlertDestinationTotals;
}

export function createLicenceDispatch(deps: {
  clock: Clock;
  logger: Logger;
  metrics?: MetricsRegistry | undefined;
}): LicenceDispatch {
  const counts = alertOutcomeCounts(deps.metrics);
  const totals = new Map<LicenceDestination<unknown>, AlertDestinationTotals>();
  const own = (destination: LicenceDestination<unknown>) => {
    let found = totals.get(destination);
    if (found === undefined) {
      found = emptyTotals();
      totals.set(destination, found);
    }
    return found;
  };

  async function sendOne<T>(destination: LicenceDestination<T>, value: T): Promise<AlertOutcome> {
    const mine = own(destination as LicenceDestination<unknown>);
    let outcome: AlertOutcome;
    try {
      const result = await destination.send(value);
      outcome = result.outcome;
      if (result.outcome !== "sent")
        deps.logger.verbose(`licence alert ${result.outcome}`, {
          destination: destination.name,
          kind: destination.kind,
          reason: result.reason,
        });
    } catch (error) {
      outcome = "failed";
      const message = describeError(error);
      mine.lastError = { at: new Date(deps.clock.now()).toISOString(), message };
      deps.logger.error("sending a licence alert failed", {
        destination: destination.name,
        kind: destination.kind,
        error: message,
      });
    }
    counts.add(destination.name, destination.kind, outcome);
    addToTotals(mine, outcome);
    return outcome;
  }

  return {
    send: (destinations, value) =>
      Promise.all(destinations.map((destination) => sendOne(destination, value))),
    totals: (destination) => ({ ...own(destination) }),
  };
}
