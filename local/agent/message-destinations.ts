/**
 * The email, Teams, Slack and webhook destinations of reload-task alerts for the local process: the
 * configuration's enabled ones, sending through the SMTP client, the HTTP poster, the webhook
 * caller and template files read from disk. The alert destination registry adds these to its list.
 */
import { readFile } from "node:fs/promises";
import { createAlertPoster } from "../../core/adapters/http-clients/alert-poster.ts";
import { createWebhookCaller } from "../../core/adapters/http-clients/webhook-caller.ts";
import { createSmtpSender } from "../../core/adapters/smtp/smtp-client.ts";
import type { AlertBudget } from "../../core/alerts/alert-budget.ts";
import {
  buildMessageDestinations,
  type MessageDestinationsConfig,
} from "../../core/alerts/message-destinations.ts";
import type { Logger } from "../../core/ports.ts";
import type { AlertDestination } from "../../core/task-events/alert-destination.ts";

export function messageDestinations(
  config: MessageDestinationsConfig,
  deps: { logger: Logger; budget?: AlertBudget | undefined },
): AlertDestination[] {
  return buildMessageDestinations(config, {
    logger: deps.logger,
    budget: deps.budget,
    emailSender: (smtp) => createSmtpSender(smtp, { logger: deps.logger }),
    poster: createAlertPoster(),
    webhookCaller: createWebhookCaller(),
    readTemplate: (path) => readFile(path, "utf8"),
  });
}
