/**
 * One destination's admission (types.ts, AlertAdmission): its budget of alerts per minute, then
 * the rate limit of each key. The budget is looked at first and used only by an alert the rate
 * limit lets through: an alert left out by the budget leaves its keys' windows closed, so that
 * the next alert of the task can still go, and alerts the rate limit leaves out use none of it.
 * With the process's own rate limit the answer is made at once, so that alerts sent together
 * cannot both find the budget's last unit; with a shared one (shared-alert-rate-limit.ts) it
 * comes once the windows were asked for, and the budget is used then.
 */
import type { DestinationBudget } from "./alert-budget.ts";
import type { AlertRateLimit } from "./alert-rate-limit.ts";
import type { SharedAlertRateLimit } from "./shared-alert-rate-limit.ts";
import type { Admission, AlertAdmission } from "./types.ts";

export function createAlertAdmission(limits: {
  /** None: no budget (the destination's `maxAlertsPerMinute` is 0, or it has none). */
  readonly budget?: DestinationBudget | undefined;
  readonly rateLimit: AlertRateLimit | SharedAlertRateLimit;
}): AlertAdmission {
  const { budget, rateLimit } = limits;
  return {
    admit(keys, windowSeconds, reason) {
      if (budget !== undefined && !budget.hasRoom()) return { refused: budget.refusal };
      const decide = (taken: readonly boolean[]): Admission => {
        const admitted = keys.filter((_, index) => taken[index]);
        if (admitted.length === 0) return { refused: { outcome: "suppressed", reason } };
        budget?.use();
        return { admitted };
      };
      const taken = keys.map((key) => rateLimit.take(key, windowSeconds));
      return taken.every((each): each is boolean => typeof each === "boolean")
        ? decide(taken)
        : Promise.all(taken).then(decide);
    },
  };
}
