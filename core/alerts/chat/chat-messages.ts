/**
 * What one alert kind is in a chat channel, for the one chat destination of each service
 * (chat-destination.ts) to post it: where its settings are in the service's section, its
 * rate-limit key, the fields its title and templates see, and its basic message in each service's
 * format. One file per kind beside this one (task-chat.ts, licence-chat.ts), each listed once in
 * the destination's KINDS; and the format of each service (teams.ts, slack.ts).
 */
import type { SlackNotificationConfig, TeamsNotificationConfig } from "../../config/index.ts";
import type { AlertView } from "../alert-view.ts";
import type { Alert, AlertKind } from "../types.ts";
import type { ChatTitle } from "./chat-title.ts";

/** A chat service's section: Teams or Slack. */
export type ChatConfig = TeamsNotificationConfig | SlackNotificationConfig;

/** The settings every kind's block has, in both services (Slack's adds its poster settings). */
export type ChatKindSettings = Pick<
  TeamsNotificationConfig["serverLicenseExpiry"],
  "enable" | "webhookURL" | "messageType" | "basicMsgTemplate" | "rateLimit" | "templateFile"
>;

export interface ChatMessages<A extends Alert, F extends object> {
  /** The kinds it posts. */
  readonly kinds: readonly AlertKind[];
  /** The block of `kind` in the service's section. */
  settings(config: ChatConfig, kind: AlertKind): ChatKindSettings;
  /** How its log lines name it, e.g. `alert` (`teams alert: template not used`). */
  readonly label: string;
  /** What its log lines say of the alert. */
  context(alert: A): Readonly<Record<string, string>>;
  /** The rate limit's key, in the service named `service`. */
  rateKey(alert: A, service: string): string;
  /** Why the alert was left out when it had one within the window. */
  suppressed(settings: ChatKindSettings): string;
  /** The fields its title and the operator's template see. */
  fields(alert: A, settings: ChatKindSettings, view: AlertView): F;
  /** The title when `basicMsgTemplate` cannot be used or renders empty. */
  plainTitle(alert: A, fields: F): string;
  /** Its basic message as a Teams card. */
  teams(fields: F, title: ChatTitle, settings: ChatKindSettings, alert: A): unknown;
  /** Its basic message as Slack blocks (`settings` carries Slack's poster settings). */
  slack(fields: F, title: ChatTitle, settings: ChatKindSettings, alert: A): unknown;
}

/** A chat service's format: its markup, its basic message of a kind, and what it accepts of an operator's template. */
export interface ChatFormat {
  readonly name: string;
  /** Escapes data for the service's markup (chat-markup.ts). */
  escape(text: string): string;
  basic(
    messages: ChatMessages<Alert, object>,
    fields: object,
    title: ChatTitle,
    settings: ChatKindSettings,
    alert: Alert,
  ): unknown;
  /** The parsed template output as the service's message; throws with the reason when it is not one. */
  formatted(parsed: unknown, settings: ChatKindSettings): unknown;
}
