/**
 * The message destinations of reload-task alerts that the configuration switches on — email,
 * Microsoft Teams, Slack and outgoing webhooks — built from the configuration and the clients they send through.
 * local/agent/message-destinations.ts supplies the clients of the local process.
 */
import type { Config } from "../config/schema/config.ts";
import type { Logger } from "../ports.ts";
import type { AlertDestination } from "../task-events/alert-destination.ts";
import type { TemplateLinks } from "../task-events/template-fields.ts";
import type { AlertBudget } from "./alert-budget.ts";
import { createEmailDestination } from "./email-destination.ts";
import type { EmailSender } from "./email-sender.ts";
import type { JsonPoster } from "./json-poster.ts";
import { createSlackDestination } from "./slack-destination.ts";
import { createTeamsDestination } from "./teams-destination.ts";
import type { WebhookCaller } from "./webhook-caller.ts";
import { createWebhookDestination } from "./webhook-destination.ts";

export type MessageDestinationsConfig = Pick<
  Config,
  | "emailNotification"
  | "teamsNotification"
  | "slackNotification"
  | "webhookNotification"
  | "qlikSenseUrls"
  | "genericUrls"
>;

export interface MessageDestinationClients {
  readonly logger: Logger;
  /** The SMTP client; made only when email is on. */
  readonly emailSender: (smtp: Config["emailNotification"]["smtp"]) => EmailSender;
  readonly poster: JsonPoster;
  readonly webhookCaller: WebhookCaller;
  /** Reads an operator's template file (UTF-8). */
  readonly readTemplate: (path: string) => Promise<string>;
  /** Each destination's budget of alerts per minute (alert-budget.ts); none without it. */
  readonly budget?: AlertBudget | undefined;
}

export function buildMessageDestinations(
  config: MessageDestinationsConfig,
  clients: MessageDestinationClients,
): AlertDestination[] {
  const links: TemplateLinks = { qlikSenseUrls: config.qlikSenseUrls, genericUrls: config.genericUrls };
  const { readTemplate, poster } = clients;
  const budget = (name: string) => clients.budget?.forDestination(name);
  const destinations: AlertDestination[] = [];
  if (config.emailNotification.enable) {
    const logger = clients.logger.child("email");
    const sender = clients.emailSender(config.emailNotification.smtp);
    destinations.push(
      createEmailDestination(config.emailNotification, {
        sender,
        readTemplate,
        logger,
        links,
        budget: budget("email"),
      }),
    );
  }
  if (config.teamsNotification.enable) {
    const logger = clients.logger.child("teams");
    destinations.push(
      createTeamsDestination(config.teamsNotification, {
        poster,
        readTemplate,
        logger,
        links,
        budget: budget("teams"),
      }),
    );
  }
  if (config.slackNotification.enable) {
    const logger = clients.logger.child("slack");
    destinations.push(
      createSlackDestination(config.slackNotification, {
        poster,
        readTemplate,
        logger,
        links,
        budget: budget("slack"),
      }),
    );
  }
  if (config.webhookNotification.enable) {
    const logger = clients.logger.child("webhook");
    const caller = clients.webhookCaller;
    destinations.push(
      createWebhookDestination(config.webhookNotification, {
        caller,
        logger,
        links,
        budget: budget("webhook"),
      }),
    );
  }
  return destinations;
}
