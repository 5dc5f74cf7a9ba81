/**
 * What one alert kind is by email, for the one email destination (email-destination.ts) to send
 * it: where its settings are in `emailNotification`, who receives it, its rate-limit key and how
 * it reads. One file per kind beside this one (task-email.ts, licence-email.ts), each listed once
 * in the destination's KINDS.
 */
import type { EmailNotificationConfig } from "../../config/index.ts";
import type { AlertView } from "../alert-view.ts";
import type { Alert, AlertKind } from "../types.ts";
import type { BodyTemplate, EmailContentResult } from "./email-content.ts";

/** The settings every kind's block has (`emailNotification.<kind>`). */
export type EmailKindSettings = Pick<
  EmailNotificationConfig["serverLicenseExpiry"],
  | "enable"
  | "rateLimit"
  | "priority"
  | "subject"
  | "bodyFileDirectory"
  | "htmlTemplateFile"
  | "fromAddress"
  | "recipients"
>;

export interface RecipientDecision {
  /** De-duplicated, valid addresses. */
  readonly recipients: readonly string[];
  /** Values that are not email addresses, with where they came from. */
  readonly refused: readonly { readonly value: string; readonly source: string }[];
  /** Why a source gave nothing although it might have (e.g. the owner could not be looked up). */
  readonly notes: readonly string[];
}

export interface EmailMessages<A extends Alert, S extends EmailKindSettings> {
  /** The kinds it sends. */
  readonly kinds: readonly AlertKind[];
  /** The block of `kind` in `emailNotification`. */
  settings(config: EmailNotificationConfig, kind: AlertKind): S;
  /** How its log lines begin, e.g. `Alert email`. */
  readonly label: string;
  /** What its emails are called when some fail, e.g. `alert emails`. */
  readonly plural: string;
  /** What its log lines say of the alert. */
  context(alert: A): Readonly<Record<string, string>>;
  recipients(alert: A, settings: S): RecipientDecision;
  /** The rate limit's key of one recipient. */
  rateKey(alert: A, address: string): string;
  /** Why the alert was left out when every recipient had one within the window. */
  suppressed(settings: S): string;
  /** Subject and body; `body` is the operator's template, undefined for the built-in one. */
  content(alert: A, settings: S, body: BodyTemplate, view: AlertView): EmailContentResult;
}
