/**
 * The dispatcher: sends one alert to every destination that takes its kind, all at once, and
 * answers what each did. It owns, per destination, what every send goes through before it sends
 * (admission.ts: the budget of alerts per minute, then the rate limit). A destination that
 * throws (or answers something else than a send result) is counted `failed` and logged at ERROR,
 * at most once a minute per destination with the number of failures since the last line, so one
 * broken SMTP server neither floods the log nor holds up the other destinations. Each answer is
 * counted in `steward_alerts_total{destination,kind,outcome}` and in the destination's totals,
 * which carry its last error for the status page.
 *
 * Totals are kept per destination for the reload-task alerts, its main traffic, and apart for
 * every other kind (`email (serverLicenseExpiry)`, totalsKey), so that a licence alert's failure
 * is never taken for a task alert's on the status page.
 */
import { createLogThrottle } from "../logging/index.ts";
import type { Clock, Logger, MetricsRegistry } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import { createAlertAdmission } from "./admission.ts";
import type { AlertBudget } from "./alert-budget.ts";
import { alertOutcomeCounts } from "./alert-outcome-counts.ts";
import { createAlertRateLimit } from "./alert-rate-limit.ts";
import type { SharedAlertRateLimit } from "./shared-alert-rate-limit.ts";
import { isTaskAlertKind } from "./task-alert.ts";
import type {
  Alert,
  AlertAdmission,
  AlertDestination,
  AlertKind,
  AlertOutcome,
  AlertSendResult,
} from "./types.ts";

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

/** Where a destination's answers to `kind` are counted: its name for the reload-task kinds, `name (kind)` for the others. */
export function totalsKey(destination: string, kind: AlertKind): string {
  return isTaskAlertKind(kind) ? destination : `${destination} (${kind})`;
}

/** Sends an alert to every destination that takes its kind; answers each one's outcome by name, never rejects. */
export type DispatchAlert<A extends Alert = Alert> = (alert: A) => Promise<Record<string, AlertOutcome>>;

export interface AlertDispatcher<A extends Alert = Alert> {
  /** Resolves once every destination that takes the kind has answered; never rejects. */
  readonly dispatch: DispatchAlert<A>;
  /** The destinations, in the order they were given. */
  readonly destinations: readonly Pick<AlertDestination<A>, "name" | "handles">[];
  /** The totals counted under `key` (totalsKey); empty ones for a key no alert has reached yet. */
  totals(key: string): AlertDestinationTotals;
}

export interface AlertDispatcherDeps<A extends Alert> {
  readonly destinations: readonly AlertDestination<A>[];
  readonly clock: Clock;
  readonly logger: Logger;
  /** Where `steward_alerts_total` is counted (alert-outcome-counts.ts: one per registry). */
  readonly metrics?: MetricsRegistry | undefined;
  /** Each destination's budget of alerts per minute (alert-budget.ts); none without it. */
  readonly budget?: AlertBudget | undefined;
  /** Each destination's rate limit shared with other processes; the process's own without it. */
  readonly sharedRateLimit?: ((destination: string) => SharedAlertRateLimit) | undefined;
}

const OUTCOMES: ReadonlySet<string> = new Set(["sent", "suppressed", "over_budget", "skipped"]);

/** What an alert is about, for the log lines of its sends: the task of a reload-task alert. */
function about(alert: Alert): Record<string, string> {
  return "event" in alert ? { task: alert.event.taskName } : {};
}

export function createAlertDispatcher<A extends Alert>(deps: AlertDispatcherDeps<A>): AlertDispatcher<A> {
  const { destinations, clock, logger } = deps;
  const totals = new Map<string, AlertDestinationTotals>();
  const counts = alertOutcomeCounts(deps.metrics);
  const failures = createLogThrottle();
  const admissions = new Map<AlertDestination<A>, AlertAdmission>(
    destinations.map((destination) => [
      destination,
      createAlertAdmission({
        budget: deps.budget?.forDestination(destination.name),
        rateLimit: deps.sharedRateLimit?.(destination.name) ?? createAlertRateLimit(() => clock.now()),
      }),
    ]),
  );
  const own = (key: string) => {
    let found = totals.get(key);
    if (found === undefined) {
      found = emptyTotals();
      totals.set(key, found);
    }
    return found;
  };

  function failed(destination: AlertDestination<A>, alert: A, error: unknown): void {
    const message = describeError(error);
    own(totalsKey(destination.name, alert.kind)).lastError = {
      at: new Date(clock.now()).toISOString(),
      message,
    };
    const since = failures.admit(destination.name, clock.now());
    const fields = { destination: destination.name, kind: alert.kind, ...about(alert), error: message };
    if (since === undefined) logger.debug("sending an alert failed", fields);
    else logger.error("sending an alert failed", { ...fields, failuresSinceLastLine: since });
  }

  async function sendTo(destination: AlertDestination<A>, alert: A): Promise<AlertOutcome> {
    let outcome: AlertOutcome;
    try {
      const result: AlertSendResult = await destination.send(
        alert,
        admissions.get(destination) as AlertAdmission,
      );
      if (!OUTCOMES.has(result?.outcome))
        throw new TypeError(`answered ${JSON.stringify(result)}, not a send result`);
      if (result.outcome !== "sent")
        logger.verbose(`alert ${result.outcome}`, {
          destination: destination.name,
          kind: alert.kind,
          reason: result.reason,
        });
      outcome = result.outcome;
    } catch (error) {
      outcome = "failed";
      failed(destination, alert, error);
    }
    counts.add(destination.name, alert.kind, outcome);
    addToTotals(own(totalsKey(destination.name, alert.kind)), outcome);
    return outcome;
  }

  /** `handles` is configuration lookup; one that throws is a bug, logged, and the destination left out. */
  function handlesSafely(destination: AlertDestination<A>, kind: AlertKind): boolean {
    try {
      return destination.handles(kind);
    } catch (error) {
      logger.error("an alert destination could not say whether it handles an alert", {
        destination: destination.name,
        kind,
        error: describeError(error),
      });
      return false;
    }
  }

  return {
    async dispatch(alert) {
      const taking = destinations.filter((destination) => handlesSafely(destination, alert.kind));
      const outcomes = await Promise.all(taking.map((destination) => sendTo(destination, alert)));
      return Object.fromEntries(
        taking.map((destination, i) => [destination.name, outcomes[i] as AlertOutcome]),
      );
    },
    destinations,
    totals: (key) => ({ ...own(key) }),
  };
}
