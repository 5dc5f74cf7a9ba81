/**
 * Where an alert goes (email, Teams, Slack, a webhook, the broker, the time-series database,
 * the observability platform): each destination says which alert kinds it handles (what its
 * configuration switches on) and sends one TaskAlert. dispatch-alert.ts calls every destination
 * that handles the kind, in parallel, and counts what each answered.
 *
 * A send answers what happened — sent, suppressed by the destination's rate limit, left out
 * because the destination's budget of alerts per minute is used up (over_budget), or skipped
 * because there was nothing to send (no recipient) — and throws an AlertSendError when it
 * failed, with the underlying error as `cause`, so the failure is counted and shown, never lost.
 */
import type { TaskAlert } from "./task-alert.ts";
import type { AlertKind } from "./task-kinds.ts";

export type AlertSendResult =
  /** `messages`: messages, posts or points sent (an email to three recipients is 3); `suppressed`: some left out by the rate limit. */
  | { readonly outcome: "sent"; readonly messages: number; readonly suppressed?: number }
  /** The rate limit left everything out (e.g. this task alerted within the window). */
  | { readonly outcome: "suppressed"; readonly reason: string }
  /** The destination's budget of alerts per minute, whatever the task, is used up (alert-budget.ts). */
  | { readonly outcome: "over_budget"; readonly reason: string }
  /** Nothing to send, e.g. no recipient; the reason is logged. */
  | { readonly outcome: "skipped"; readonly reason: string };

export type AlertOutcome = AlertSendResult["outcome"] | "failed";

export interface AlertDestination {
  /** Its name in metrics, logs and the status page, e.g. `email`, `teams`, `webhook`. */
  readonly name: string;
  /** True when the configuration switches this kind on for this destination. */
  handles(kind: AlertKind): boolean;
  send(alert: TaskAlert): Promise<AlertSendResult>;
}

/** A send that failed; `cause` holds what the client threw (the SMTP, HTTP or broker error). */
export class AlertSendError extends Error {
  override name = "AlertSendError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
