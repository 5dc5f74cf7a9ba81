/**
 * The outgoing webhook destination: for a failed or aborted reload, every webhook of the kind's
 * list is called one after another with the payload of webhook-payload.ts. One rate limit per
 * task covers the whole list, and so does the destination's budget of alerts per minute. A
 * webhook that fails — no answer in time, a refusal, an unreadable CA file — is logged by its
 * description and counted, and the others are still called; the send then fails with how many
 * did.
 */
import type { WebhookNotificationConfig } from "../config/schema/config.ts";
import type { Logger } from "../ports.ts";
import type { AlertDestination, AlertSendResult } from "../task-events/alert-destination.ts";
import type { TaskAlert } from "../task-events/task-alert.ts";
import type { AlertKind } from "../task-events/task-kinds.ts";
import { type TemplateLinks, templateFields } from "../task-events/template-fields.ts";
import { admitAlert, type DestinationBudget } from "./alert-budget.ts";
import { type AlertRateLimit, createAlertRateLimit } from "./alert-rate-limit.ts";
import type { WebhookCaller } from "./webhook-caller.ts";
import { callWebhookList } from "./webhook-list.ts";
import { type WebhookKind, webhookPayload } from "./webhook-payload.ts";

export interface WebhookDestinationDeps {
  readonly caller: WebhookCaller;
  readonly logger: Logger;
  readonly links: TemplateLinks;
  readonly rateLimit?: AlertRateLimit;
  readonly budget?: DestinationBudget | undefined;
}

const isWebhookKind = (kind: AlertKind): kind is WebhookKind =>
  kind === "reloadTaskFailure" || kind === "reloadTaskAborted";

export function createWebhookDestination(
  config: WebhookNotificationConfig,
  deps: WebhookDestinationDeps,
): AlertDestination {
  const rateLimit = deps.rateLimit ?? createAlertRateLimit();
  const logger = deps.logger;

  return {
    name: "webhook",
    handles: (kind) => config.enable && isWebhookKind(kind) && config[kind].webhooks.length > 0,
    async send(alert: TaskAlert): Promise<AlertSendResult> {
      if (!isWebhookKind(alert.kind))
        return { outcome: "skipped", reason: `webhooks have no ${alert.kind} alerts` };
      const kind = alert.kind;
      const { webhooks, rateLimit: windowSeconds } = config[kind];
      if (webhooks.length === 0) return { outcome: "skipped", reason: "no webhook" };
      const refused = admitAlert(deps.budget, () =>
        rateLimit.take(`${kind}|${alert.event.taskId}`, windowSeconds)
          ? undefined
          : { outcome: "suppressed", reason: `this task had an alert within ${windowSeconds} s` },
      );
      if (refused !== undefined) return refused;
      const payload = webhookPayload(kind, templateFields(alert, deps.links, { head: 0, tail: 0 }));
      return callWebhookList(webhooks, payload, {
        caller: deps.caller,
        timeoutSeconds: config.timeoutSeconds,
        onFailure(webhook, reason) {
          logger.warn("Alert webhook failed; the others are still called", {
            kind,
            taskId: alert.event.taskId,
            webhook,
            reason,
          });
        },
      });
    },
  };
}
