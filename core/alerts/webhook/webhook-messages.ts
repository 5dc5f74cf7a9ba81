/**
 * What one alert kind is as an outgoing webhook call, for the one webhook destination
 * (webhook-destination.ts) to make it: whether the configuration switches it on, its list of
 * webhooks, its rate-limit key and its payload. One file per kind beside this one
 * (task-webhook.ts, licence-webhook.ts), each listed once in the destination's KINDS.
 */
import type { Config } from "../../config/index.ts";
import type { AlertView } from "../alert-view.ts";
import type { Alert, AlertKind } from "../types.ts";
import type { WebhookValue } from "./webhook-client.ts";

/** The sections the webhooks read: theirs, and the licence monitor's switches of Butler's licence webhooks. */
export type WebhookConfig = Pick<Config, "webhookNotification" | "licenseMonitor">;

/** A list of webhooks with its rate limit (`webhookNotification.<kind>`). */
export type WebhookList = Config["webhookNotification"]["reloadTaskFailure"];

export interface WebhookMessages<A extends Alert> {
  /** The kinds it calls webhooks for. */
  readonly kinds: readonly AlertKind[];
  /** True when the configuration switches `kind` on. */
  handles(config: WebhookConfig, kind: AlertKind): boolean;
  /** The list of `kind`. */
  list(config: WebhookConfig, kind: AlertKind): WebhookList;
  /** What its log lines say of the alert. */
  context(alert: A): Readonly<Record<string, string>>;
  /** How the WARN of a webhook that failed reads. */
  readonly failureLine: string;
  rateKey(alert: A): string;
  /** Why the alert was left out when it had one within the window. */
  suppressed(list: WebhookList): string;
  payload(alert: A, view: AlertView): Readonly<Record<string, WebhookValue>>;
}
