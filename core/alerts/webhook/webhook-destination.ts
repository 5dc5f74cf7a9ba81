/**
 * The outgoing webhook destination, one for every kind of alert it calls webhooks for (KINDS:
 * the failed and aborted reloads of task-webhook.ts, the server licence's expiry and status of
 * licence-webhook.ts): every webhook of the kind's list is called one after another with the
 * kind's payload (webhook-list.ts). One rate limit per key covers the whole list, and so does the
 * destination's budget of alerts per minute (the dispatcher's admission). A webhook that fails —
 * no answer in time, a refusal, an unreadable CA file — is logged by its description and
 * counted, and the others are still called; the send then fails with how many did.
 */
import type { Logger } from "../../ports.ts";
import type { AlertView } from "../alert-view.ts";
import type { Alert, AlertDestination } from "../types.ts";
import { cloudReloadWebhook } from "./cloud-reload-webhook.ts";
import { licenceExpiryWebhook, licenceStatusWebhook } from "./licence-webhook.ts";
import { serviceStateWebhook } from "./service-state-webhook.ts";
import { taskWebhook } from "./task-webhook.ts";
import type { WebhookClient } from "./webhook-client.ts";
import { callWebhookList } from "./webhook-list.ts";
import type { WebhookConfig, WebhookMessages } from "./webhook-messages.ts";

/** The kinds webhooks are called for, one line each; each answers only the alerts of the kinds it lists. */
const KINDS = [
  taskWebhook,
  licenceExpiryWebhook,
  licenceStatusWebhook,
  cloudReloadWebhook,
  serviceStateWebhook,
] as unknown as readonly WebhookMessages<Alert>[];

export interface WebhookDestinationDeps {
  readonly client: WebhookClient;
  readonly logger: Logger;
  readonly view: AlertView;
}

export function createWebhookDestination(
  config: WebhookConfig,
  deps: WebhookDestinationDeps,
): AlertDestination {
  const messagesOf = (kind: Alert["kind"]) => KINDS.find((messages) => messages.kinds.includes(kind));
  return {
    name: "webhook",
    handles: (kind) => messagesOf(kind)?.handles(config, kind) === true,
    async send(alert, admission) {
      const messages = messagesOf(alert.kind);
      if (messages === undefined)
        return { outcome: "skipped", reason: `webhooks have no ${alert.kind} alerts` };
      const list = messages.list(config, alert.kind);
      if (list.webhooks.length === 0) return { outcome: "skipped", reason: "no webhook" };
      const admitted = await admission.admit(
        [messages.rateKey(alert)],
        list.rateLimit,
        messages.suppressed(list),
      );
      if ("refused" in admitted) return admitted.refused;
      return callWebhookList(list.webhooks, messages.payload(alert, deps.view), {
        client: deps.client,
        timeoutSeconds: config.webhookNotification.timeoutSeconds,
        onFailure(webhook, reason) {
          deps.logger.warn(messages.failureLine, { ...messages.context(alert), webhook, reason });
        },
      });
    },
  };
}
