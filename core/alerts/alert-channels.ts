/**
 * The alert channels, one line each in CHANNELS, in the order the log and the status page name
 * them: each builds its one destination when its section is switched on, from the configuration
 * and the clients it sends through (the local process's are made by functions/alerts/). A
 * destination takes every kind of alert its configuration switches on, reload tasks and the
 * server licence alike. A new channel is a folder beside email/, chat/, webhook/ and
 * obs-platform/, and its line here.
 */
import type { Config } from "../config/index.ts";
import type { Logger, ObservabilityEventBatchClient, ObservabilityLogBatchClient } from "../ports.ts";
import type { AlertView } from "./alert-view.ts";
import { createChatDestination } from "./chat/chat-destination.ts";
import type { ChatWebhookClient } from "./chat/chat-webhook-client.ts";
import { SLACK } from "./chat/slack.ts";
import { TEAMS } from "./chat/teams.ts";
import type { EmailClient } from "./email/email-client.ts";
import { createEmailDestination } from "./email/email-destination.ts";
import { createObsPlatformDestination } from "./obs-platform/obs-platform-alert-destination.ts";
import type { ObsPlatformKind } from "./obs-platform/task-obs-platform.ts";
import type { AlertDestination } from "./types.ts";
import type { WebhookClient } from "./webhook/webhook-client.ts";
import { createWebhookDestination } from "./webhook/webhook-destination.ts";

/** The sections the channels read. */
export type AlertChannelsConfig = Pick<
  Config,
  | "emailNotification"
  | "teamsNotification"
  | "slackNotification"
  | "webhookNotification"
  | "incidentTool"
  | "thirdPartyToolsCredentials"
  | "licenseMonitor"
>;

/** What the channels send through. */
export interface AlertClients {
  /** The SMTP client; there when email is on. */
  readonly email?: EmailClient | undefined;
  readonly chat: ChatWebhookClient;
  readonly webhook: WebhookClient;
  /** The observability platform's client of a kind (each kind has its own headers); there when it is on. */
  readonly observability?:
    | ((kind: ObsPlatformKind) => ObservabilityEventBatchClient & ObservabilityLogBatchClient)
    | undefined;
}

export interface AlertChannelDeps {
  readonly clients: AlertClients;
  /** Reads an operator's template file (UTF-8). */
  readonly readTemplate: (path: string) => Promise<string>;
  /** Each destination logs under its own name below it. */
  readonly logger: Logger;
  readonly view: AlertView;
}

export interface AlertChannel {
  readonly name: string;
  /** The channel's destination, or undefined while its section is off. */
  build(config: AlertChannelsConfig, deps: AlertChannelDeps): AlertDestination | undefined;
}

const email: AlertChannel = {
  name: "email",
  build: (config, { clients, readTemplate, logger, view }) =>
    config.emailNotification.enable && clients.email !== undefined
      ? createEmailDestination(config.emailNotification, {
          client: clients.email,
          readTemplate,
          logger: logger.child("email"),
          view,
        })
      : undefined,
};

const chat = (name: "teams" | "slack"): AlertChannel => ({
  name,
  build(config, { clients, readTemplate, logger, view }) {
    const section = name === "teams" ? config.teamsNotification : config.slackNotification;
    if (!section.enable) return undefined;
    const deps = { client: clients.chat, readTemplate, logger: logger.child(name), view };
    return createChatDestination(section, name === "teams" ? TEAMS : SLACK, deps);
  },
});

const webhook: AlertChannel = {
  name: "webhook",
  build: (config, { clients, logger, view }) =>
    config.webhookNotification.enable
      ? createWebhookDestination(config, { client: clients.webhook, logger: logger.child("webhook"), view })
      : undefined,
};

const obsPlatform: AlertChannel = {
  name: "obs-platform",
  build: (config, { clients, logger, view }) =>
    config.incidentTool.newRelic.enable && clients.observability !== undefined
      ? createObsPlatformDestination(config.incidentTool.newRelic, {
          clientFor: clients.observability,
          accounts: config.thirdPartyToolsCredentials.obsPlatform,
          logger: logger.child("obs-platform"),
          view,
        })
      : undefined,
};

export const ALERT_CHANNELS: readonly AlertChannel[] = [
  email,
  chat("teams"),
  chat("slack"),
  webhook,
  obsPlatform,
];

/** The destinations of the channels switched on, in the order of ALERT_CHANNELS. */
export function buildAlertDestinations(
  config: AlertChannelsConfig,
  deps: AlertChannelDeps,
  channels: readonly AlertChannel[] = ALERT_CHANNELS,
): AlertDestination[] {
  return channels.flatMap((channel) => channel.build(config, deps) ?? []);
}
