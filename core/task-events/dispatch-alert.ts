/**
 * Sends one TaskAlert to every destination that handles its kind, all at once, and answers what
 * each did. A destination that throws (or answers something else than a send result) is counted
 * `failed` and logged at ERROR, at most once a minute per destination with the number of
 * failures since the last line, so one broken SMTP server neither floods the log nor holds up the
 * other destinations. Each answer is counted in `steward_alerts_total{destination,kind,outcome}`
 * and in the destination's totals, which carry its last error for the status page.
 */
import { alertOutcomeCounts } from "../alerts/alert-outcome-counts.ts";
import { createLogThrottle } from "../logging/log-throttle.ts";
import type { Clock, Logger, MetricsRegistry } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import type { AlertDestination, AlertOutcome, AlertSendResult } from "./alert-destination.ts";
import type { TaskAlert } from "./task-alert.ts";

/** A destination's answers since start, and its last failure. */
export interface AlertDestinationTotals {
  sent: number;
  failed: number;
  suppressed: number;
  /** Left out because the destination's budget of alerts per minute was used up. */
  overBudget: number;
  skipped: number;
  lastError?: { at: string; message: string };
}

/** Totals of a destination no alert has reached yet. */
export function emptyTotals(): AlertDestinationTotals {
  return { sent: 0, failed: 0, suppressed: 0, overBudget: 0, skipped: 0 };
}

/** Counts one answer in a destination's totals. */
export function addToTotals(totals: AlertDestinationTotals, outcome: AlertOutcome): void {
  if (outcome === "over_budget") totals.overBudget += 1;
  else totals[outcome] += 1;
}

export interface AlertDispatcher {
  /** Resolves once every destination that handles the kind has answered; never rejects. */
  dispatch(alert: TaskAlert): Promise<Record<string, AlertOutcome>>;
  /** Per destination, every destination given (also those no alert has reached yet). */
  totals(): Record<string, AlertDestinationTotals>;
}

export interface AlertDispatcherDeps {
  readonly destinations: readonly AlertDestination[];
  readonly clock: Clock;
  readonly logger: Logger;
  /** Where `steward_alerts_total` is counted (core/alerts/alert-outcome-counts.ts: one per registry). */
  readonly metrics?: MetricsRegistry | undefined;
}

const OUTCOMES: ReadonlySet<string> = new Set(["sent", "suppressed", "over_budget", "skipped"]);

export function createAlertDispatcher(deps: AlertDispatcherDeps): AlertDispatcher {
  const { destinations, clock, logger } = deps;
  const totals = new Map<string, AlertDestinationTotals>(destinations.map((d) => [d.name, emptyTotals()]));
  const counts = alertOutcomeCounts(deps.metrics);
  const failures = createLogThrottle();

  function count(destination: AlertDestination, alert: TaskAlert, outcome: AlertOutcome): void {
    counts.add(destination.name, alert.kind, outcome);
    const own = totals.get(destination.name);
    if (own !== undefined) addToTotals(own, outcome);
  }

  function failed(destination: AlertDestination, alert: TaskAlert, error: unknown): void {
    const message = describeError(error);
    const own = totals.get(destination.name);
    if (own !== undefined) own.lastError = { at: new Date(clock.now()).toISOString(), message };
    const since = failures.admit(destination.name, clock.now());
    const fields = {
      destination: destination.name,
      kind: alert.kind,
      task: alert.event.taskName,
      error: message,
    };
    if (since === undefined) logger.debug("sending an alert failed", fields);
    else logger.error("sending an alert failed", { ...fields, failuresSinceLastLine: since });
  }

  async function sendTo(destination: AlertDestination, alert: TaskAlert): Promise<AlertOutcome> {
    try {
      const result: AlertSendResult = await destination.send(alert);
      if (!OUTCOMES.has(result?.outcome))
        throw new TypeError(`answered ${JSON.stringify(result)}, not a send result`);
      if (result.outcome !== "sent") {
        logger.verbose(`alert ${result.outcome}`, { destination: destination.name, reason: result.reason });
      }
      count(destination, alert, result.outcome);
      return result.outcome;
    } catch (error) {
      count(destination, alert, "failed");
      failed(destination, alert, error);
      return "failed";
    }
  }

  return {
    async dispatch(alert) {
      const handling = destinations.filter((destination) => handlesSafely(destination, alert, logger));
      const outcomes = await Promise.all(handling.map((destination) => sendTo(destination, alert)));
      return Object.fromEntries(
        handling.map((destination, i) => [destination.name, outcomes[i] as AlertOutcome]),
      );
    },
    totals: () => Object.fromEntries([...totals].map(([name, own]) => [name, { ...own }])),
  };
}

/** `handles` is configuration lookup; one that throws is a bug, logged, and the destination left out. */
function handlesSafely(destination: AlertDestination, alert: TaskAlert, logger: Logger): boolean {
  try {
    return destination.handles(alert.kind);
  } catch (error) {
    logger.error("an alert destination could not say whether it handles an alert", {
      destination: destination.name,
      kind: alert.kind,
      error: describeError(error),
    });
    return false;
  }
}
