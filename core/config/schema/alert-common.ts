/**
 * Settings every message destination of reload-task alerts shares (email, Teams, Slack): how
 * long one send may take, the per-task rate limit, and how much of the script log is shown.
 */
import * as v from "valibot";
import { int } from "./primitives.ts";

/** Seconds one send may take before it counts as failed, so that a hung server never holds an alert. */
export const alertTimeoutSeconds = () => int(15, 1, 300);

/** Seconds after an alert in which the same key (task, or task and recipient) gets no other; 0 = no limit. */
export const alertRateLimit = (fallback: number) => int(fallback, 0, 7 * 86_400);

/**
 * Alerts a destination sends per minute at most, whatever the task or licence they are about;
 * 0 = no budget. The per-task rate limit keys on the task id, which a datagram names itself, so
 * only a budget independent of it bounds what a flood of made-up events can send.
 */
export const alertBudget = (fallback: number) => int(fallback, 0, 100_000);

/** Lines of the script log shown; the log is kept to these lines so that a message stays readable. */
export const scriptLogLines = (fallback: number) => int(fallback, 0, 1000);

/** `basic`: Steward's own message; `formatted`: the operator's template file. */
export const messageType = () =>
  v.optional(v.picklist(["basic", "formatted"], 'must be "basic" or "formatted"'), "basic");

/**
 * The server licence's expiry alert goes at most once a day per destination by default: the
 * licence monitor runs every 6 hours, and a licence that expires in 20 days is news once a day.
 */
export const LICENCE_ALERT_RATE_LIMIT = 86_400;
