/**
 * The alert budget: per destination (email, Teams, Slack, webhooks, the observability platform),
 * at most `maxAlertsPerMinute` alerts a minute, whatever task or licence they are about. The
 * per-task rate limits key on the task id, which a datagram names itself: a fresh id per datagram
 * passes every one of them, so only a budget independent of the id bounds what a flood of
 * made-up events can send to a channel or an inbox. The task alerts and the server licence's
 * share one budget per destination (one object per process), so the limit holds for the channel.
 *
 * Windows are minutes of the clock (fixed-window-counter.ts). An alert beyond the budget is not
 * sent and is answered `over_budget` (counted in `steward_alerts_total` and on the status page);
 * the first one of a window is said at WARN, once. The budget is looked at before the per-task
 * rate limit and used only by an alert both let through: an alert left out by the budget leaves
 * its task's rate-limit window closed, so that task's next alert can still go, and alerts the
 * rate limit leaves out use none of it. The time-series points and broker messages of task
 * events have no budget: they record every run rather than alert anyone, and the UDP listener's
 * own rate limit bounds them.
 */
import type { Clock, Logger } from "../ports.ts";
import { createFixedWindowCounter } from "../ratelimit/index.ts";
import type { AlertSendResult } from "./types.ts";

const MINUTE_MS = 60_000;

/** One destination's budget. */
export interface DestinationBudget {
  /** Whether one more alert fits in this minute; nothing is counted. */
  hasRoom(): boolean;
  /** Counts one alert sent. */
  use(): void;
  /** What a send left out by the budget answers. */
  readonly refusal: AlertSendResult;
}

export interface AlertBudget {
  /** The budget of the destination named `name` (`email`, `teams`, …); none for a destination without one. */
  forDestination(name: string): DestinationBudget | undefined;
}

export function createAlertBudget(deps: {
  readonly limits: Readonly<Record<string, number>>;
  readonly clock: Clock;
  readonly logger: Logger;
}): AlertBudget {
  const budgets = new Map<string, DestinationBudget | undefined>();
  return {
    forDestination(name) {
      if (!budgets.has(name)) budgets.set(name, destinationBudget(name, deps.limits[name] ?? 0, deps));
      return budgets.get(name);
    },
  };
}

function destinationBudget(
  name: string,
  perMinute: number,
  deps: { readonly clock: Clock; readonly logger: Logger },
): DestinationBudget | undefined {
  if (perMinute <= 0) return undefined;
  const counter = createFixedWindowCounter({ limit: perMinute, windowMs: MINUTE_MS });
  let warnedMinute: number | undefined;
  return {
    hasRoom() {
      const now = deps.clock.now();
      if (counter.count(now) < perMinute) return true;
      const minute = Math.floor(now / MINUTE_MS);
      if (warnedMinute !== minute) {
        warnedMinute = minute;
        deps.logger.warn(
          "Alert budget used up: no more alerts to this destination until the minute is over",
          {
            destination: name,
            maxAlertsPerMinute: perMinute,
            until: new Date((minute + 1) * MINUTE_MS).toISOString(),
          },
        );
      }
      return false;
    },
    use() {
      counter.tryTake(deps.clock.now());
    },
    refusal: { outcome: "over_budget", reason: `${name} sent its ${perMinute} alerts of this minute` },
  };
}
