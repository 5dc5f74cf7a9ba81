/**
 * The clients the local process's alert channels send through, made once for every producer of
 * alerts: the SMTP client when email is on, the chat webhook client (Teams, Slack), the webhook
 * client, and the observability platform's clients (one per reload-task kind, as each kind has
 * its own headers) when it is on. `close` releases them once, in the reverse order of their
 * making; the SMTP client is the one that holds anything.
 */
import { createChatWebhookClient } from "../../core/adapters/http-clients/chat-webhook-client.ts";
import { createWebhookClient } from "../../core/adapters/http-clients/webhook-client.ts";
import { observabilityClientFor } from "../../core/adapters/observability-client-for.ts";
import { createSmtpClient } from "../../core/adapters/smtp/smtp-client.ts";
import type { AlertClients, EmailClient } from "../../core/alerts/index.ts";
import type { Config } from "../../core/config/index.ts";
import type { Clock, Logger } from "../../core/ports.ts";

export interface OpenAlertClients extends AlertClients {
  /** Releases every client, once, in the reverse order of their making. */
  close(): void;
}

export interface AlertClientsOptions {
  readonly config: Pick<Config, "emailNotification" | "incidentTool">;
  /** Where the SMTP client says, once, that its password can cross the network in clear. */
  readonly logger: Logger;
  readonly clock: Clock;
  /** The SMTP client of these settings; nodemailer's by default (tests give their own). */
  readonly emailClient?: ((smtp: Config["emailNotification"]["smtp"]) => EmailClient) | undefined;
}

function observabilityClients(newRelic: Config["incidentTool"]["newRelic"], clock: Clock) {
  const clientOf = (alert: "reloadTaskFailure" | "reloadTaskAborted") =>
    observabilityClientFor({ kind: "alert", newRelic, alert }, { clock });
  const clients = {
    reloadTaskFailure: clientOf("reloadTaskFailure"),
    reloadTaskAborted: clientOf("reloadTaskAborted"),
  };
  return (kind: keyof typeof clients) => clients[kind];
}

export function openAlertClients(options: AlertClientsOptions): OpenAlertClients {
  const { config, logger, clock } = options;
  const closers: (() => void)[] = [];
  let email: EmailClient | undefined;
  if (config.emailNotification.enable) {
    const make = options.emailClient ?? ((smtp) => createSmtpClient(smtp, { logger }));
    const client = make(config.emailNotification.smtp);
    closers.push(() => client.close());
    email = client;
  }
  const newRelic = config.incidentTool.newRelic;
  return {
    email,
    chat: createChatWebhookClient(),
    webhook: createWebhookClient(),
    observability: newRelic.enable ? observabilityClients(newRelic, clock) : undefined,
    close() {
      for (const close of closers.splice(0).reverse()) close();
    },
  };
}
