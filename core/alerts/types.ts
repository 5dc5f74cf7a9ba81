/**
 * What alerting is made of: an Alert (one of the kinds below, each a file of this module), the
 * destination it goes to (one per channel: email, Teams, Slack, webhooks, the observability
 * platform; each takes the kinds its configuration switches on), and what a send answers.
 * dispatch.ts hands an alert to every destination that takes its kind, in parallel, and counts
 * what each answered.
 *
 * A send answers what happened — sent, suppressed by the rate limit, left out because the
 * destination's budget of alerts per minute is used up (over_budget), or skipped because there
 * was nothing to send (no recipient) — and throws an AlertSendError when it failed, with the
 * underlying error as `cause`, so the failure is counted and shown, never lost.
 */
import type { CloudReloadAlert } from "./cloud-reload-alert.ts";
import type { LicenceExpiryAlert, LicenceStatusAlert } from "./licence-alert.ts";
import type { ServiceStateAlert } from "./service-state-alert.ts";
import type { TaskAlert } from "./task-alert.ts";

/** Every alert Steward sends: a reload-task run, the server licence's expiry and status, a Qlik Cloud reload, a Windows service's change of state. */
export type Alert =
  | TaskAlert
  | LicenceExpiryAlert
  | LicenceStatusAlert
  | CloudReloadAlert
  | ServiceStateAlert;

/** The kind of an alert, as counted in `steward_alerts_total{kind}` and switched on per channel. */
export type AlertKind = Alert["kind"];

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

/** What an admission answers: the keys let through, or the result of an alert left out. */
export type Admission = { readonly admitted: readonly string[] } | { readonly refused: AlertSendResult };

/**
 * The order every destination keeps before it sends, which the dispatcher owns for each
 * destination (admission.ts): the destination's budget of alerts per minute first, then the rate
 * limit of each key (a task, a task and a recipient, a licence): one alert per key per
 * `windowSeconds`. The alert is left out when the budget is used up (`over_budget`) or when no
 * key is let through (`suppressed` with `reason`); one let through uses one unit of the budget.
 * The answer comes at once from the process's own rate limit, and as a promise from one shared
 * by several processes (the cloud functions': shared-alert-rate-limit.ts); senders await it.
 */
export interface AlertAdmission {
  admit(keys: readonly string[], windowSeconds: number, reason: string): Admission | Promise<Admission>;
}

export interface AlertDestination<A extends Alert = Alert> {
  /** Its name in metrics, logs and the status page, e.g. `email`, `teams`, `webhook`. */
  readonly name: string;
  /** True when the configuration switches this kind on for this destination. */
  handles(kind: AlertKind): boolean;
  /** Sends one alert of a kind it handles; asks `admission` before it sends anything. */
  send(alert: A, admission: AlertAdmission): Promise<AlertSendResult>;
}

/** A send that failed; `cause` holds what the client threw (the SMTP, HTTP or broker error). */
export class AlertSendError extends Error {
  override name = "AlertSendError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
