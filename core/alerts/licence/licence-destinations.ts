/**
 * The destinations of the server licence's events that the configuration switches on: email,
 * Teams and Slack by their section's master switch and its `serverLicenseExpiry.enable`; the
 * webhooks by `webhookNotification.enable` and Butler's switches under
 * `licenseMonitor.serverLicense.webhook` (`enable` and `sendAlert` / `sendRecurring`). They send
 * through the same clients as the task alerts (the SMTP client, the poster, the webhook caller);
 * local/agent/licence-alerts.ts supplies the local process's. They share one rate limit whose keys
 * start with the destination's name, so that a post to Teams never holds back the one to Slack,
 * and each destination uses the budget of alerts per minute its task alerts use (`budget`).
 */
import type { Config } from "../../config/schema/config.ts";
import type { LicenceExpiryAlert, ServerLicenceStatus } from "../../licences/license-expiry-alert.ts";
import { type AlertRateLimit, createAlertRateLimit } from "../alert-rate-limit.ts";
import { escapeCardMarkdown, escapeMrkdwn } from "../chat-markup.ts";
import type { ChatTitle } from "../chat-title.ts";
import type { MessageDestinationClients, MessageDestinationsConfig } from "../message-destinations.ts";
import { asSlackMessage } from "../slack-blocks.ts";
import { asTeamsMessage } from "../teams-card.ts";
import { createLicenceChatDestination } from "./licence-chat-destination.ts";
import { licenceSlackMessage, licenceTeamsCard } from "./licence-chat-messages.ts";
import type { LicenceDestination } from "./licence-destination.ts";
import { createLicenceEmailDestination } from "./licence-email-destination.ts";
import { licenceAlertWebhooks, licenceStatusWebhooks } from "./licence-webhook-destinations.ts";

/** The message destinations' sections, the licence monitor's switches and the platform's host (named in the messages). */
export type LicenceDestinationsConfig = MessageDestinationsConfig &
  Pick<Config, "licenseMonitor" | "platform">;

export interface LicenceDestinations {
  /** Those that take the expiry alert. */
  readonly alerts: readonly LicenceDestination<LicenceExpiryAlert>[];
  /** Those that take every run's status (the recurring status webhook). */
  readonly statuses: readonly LicenceDestination<ServerLicenceStatus>[];
  /** Closes the SMTP client when email is on. */
  close(): void;
}

/** Whether the licence webhooks of one kind are switched on, as Butler read its switches. */
function webhookOn(config: LicenceDestinationsConfig, which: "sendAlert" | "sendRecurring"): boolean {
  const switches = config.licenseMonitor.serverLicense.webhook;
  return config.webhookNotification.enable && switches.enable && switches[which].enable;
}

export function buildLicenceDestinations(
  config: LicenceDestinationsConfig,
  clients: MessageDestinationClients & { rateLimit?: AlertRateLimit },
): LicenceDestinations {
  const rateLimit = clients.rateLimit ?? createAlertRateLimit();
  const budget = (name: string) => clients.budget?.forDestination(name);
  const links = { qlikSenseUrls: config.qlikSenseUrls, genericUrls: config.genericUrls };
  const hostName = config.platform.host;
  const { poster, readTemplate } = clients;
  /** What a Teams or Slack destination is made with: the same clients, its own log scope and time limit. */
  const chatDeps = (name: string, timeoutSeconds: number) => ({
    poster,
    readTemplate,
    logger: clients.logger.child(name),
    links,
    hostName,
    rateLimit,
    budget: budget(name),
    timeoutSeconds,
  });
  const alerts: LicenceDestination<LicenceExpiryAlert>[] = [];
  const closers: (() => void)[] = [];
  const email = config.emailNotification;
  if (email.enable && email.serverLicenseExpiry.enable) {
    const sender = clients.emailSender(email.smtp);
    closers.push(() => sender.close());
    const logger = clients.logger.child("email");
    const deps = { sender, readTemplate, logger, links, hostName, rateLimit, budget: budget("email") };
    alerts.push(createLicenceEmailDestination(email.serverLicenseExpiry, deps));
  }
  const teams = config.teamsNotification;
  if (teams.enable && teams.serverLicenseExpiry.enable) {
    const deps = chatDeps("teams", teams.timeoutSeconds);
    const format = {
      name: "teams",
      escape: escapeCardMarkdown,
      basic: licenceTeamsCard,
      formatted: asTeamsMessage,
    };
    alerts.push(createLicenceChatDestination(teams.serverLicenseExpiry, format, deps));
  }
  const slack = config.slackNotification;
  if (slack.enable && slack.serverLicenseExpiry.enable) {
    const settings = slack.serverLicenseExpiry;
    const deps = chatDeps("slack", slack.timeoutSeconds);
    const format = {
      name: "slack",
      escape: escapeMrkdwn,
      basic: (fields: Parameters<typeof licenceSlackMessage>[0], title: ChatTitle) =>
        licenceSlackMessage(fields, title, settings),
      formatted: (parsed: unknown) => asSlackMessage(parsed, settings),
    };
    alerts.push(createLicenceChatDestination(settings, format, deps));
  }
  const webhookDeps = {
    caller: clients.webhookCaller,
    logger: clients.logger.child("webhook"),
    rateLimit,
    budget: budget("webhook"),
  };
  if (webhookOn(config, "sendAlert"))
    alerts.push(licenceAlertWebhooks(config.webhookNotification, webhookDeps));
  const statuses = webhookOn(config, "sendRecurring")
    ? [licenceStatusWebhooks(config.webhookNotification, webhookDeps)]
    : [];
  return {
    alerts,
    statuses,
    close() {
      for (const close of closers) close();
    },
  };
}
