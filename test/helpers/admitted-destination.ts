/**
 * A destination as the dispatcher hands it alerts, for the tests of one destination: each send
 * goes through an admission of its own (the rate limit of each key, and a budget when given), as
 * core/alerts/dispatch.ts gives every destination, so that a test calls `send(alert)` alone and
 * reads what the rate limit left out.
 */
import {
  type AlertDestination,
  type AlertRateLimit,
  createAlertAdmission,
  createAlertRateLimit,
  type DestinationBudget,
} from "../../core/alerts/index.ts";

/** The destination with what else it offers (its stats), and a send that takes the alert alone. */
export type AdmittedDestination<D extends AlertDestination<never>> = Omit<D, "send"> & {
  send(alert: Parameters<D["send"]>[0]): ReturnType<D["send"]>;
  /** The rate limit its admission keeps: what it left out, and keys a test takes beforehand. */
  readonly rateLimit: AlertRateLimit;
};

export function admitted<D extends AlertDestination<never>>(
  destination: D,
  options: { readonly now?: () => number; readonly budget?: DestinationBudget } = {},
): AdmittedDestination<D> {
  const rateLimit = createAlertRateLimit(options.now);
  const admission = createAlertAdmission({ rateLimit, budget: options.budget });
  return {
    ...destination,
    send: (alert: Parameters<D["send"]>[0]) => destination.send(alert, admission) as ReturnType<D["send"]>,
    rateLimit,
  };
}
