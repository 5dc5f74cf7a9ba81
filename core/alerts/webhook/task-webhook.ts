/**
 * The reload-task alerts as outgoing webhook calls: for a failed or aborted reload, every webhook
 * of the kind's list (`webhookNotification.reloadTaskFailure`, `.reloadTaskAborted`), one rate
 * limit per task for the whole list. What a webhook receives: Butler's fields under Butler's
 * names, so that receivers built for Butler keep working; every value a text.
 */
import type { TaskAlert } from "../task-alert.ts";
import { type TaskTemplateFields, taskTemplateFields } from "../task-fields.ts";
import type { WebhookMessages } from "./webhook-messages.ts";

export const TASK_WEBHOOK_KINDS = ["reloadTaskFailure", "reloadTaskAborted"] as const;
export type WebhookKind = (typeof TASK_WEBHOOK_KINDS)[number];

const isWebhookKind = (kind: string): kind is WebhookKind =>
  (TASK_WEBHOOK_KINDS as readonly string[]).includes(kind);

const EVENT: Readonly<Record<WebhookKind, string>> = {
  reloadTaskFailure: "Qlik Sense reload failed",
  reloadTaskAborted: "Qlik Sense reload aborted",
};

export function webhookPayload(kind: WebhookKind, fields: TaskTemplateFields): Record<string, string> {
  return {
    event: EVENT[kind],
    hostName: fields.hostName,
    user: fields.user,
    taskName: fields.taskName,
    taskId: fields.taskId,
    appName: fields.appName,
    appId: fields.appId,
    appOwnerName: fields.appOwnerName,
    appOwnerUserDirectory: fields.appOwnerUserDirectory,
    appOwnerUserId: fields.appOwnerUserId,
    appOwnerEmail: fields.appOwnerEmail,
    logTimeStamp: fields.logTimeStamp,
    logLevel: fields.logLevel,
    executionId: fields.executionId,
    logMessage: fields.logMessage,
  };
}

export const taskWebhook: WebhookMessages<TaskAlert> = {
  kinds: TASK_WEBHOOK_KINDS,
  handles: ({ webhookNotification: config }, kind) =>
    config.enable && isWebhookKind(kind) && config[kind].webhooks.length > 0,
  list: ({ webhookNotification: config }, kind) => config[kind as WebhookKind],
  context: (alert) => ({ kind: alert.kind, taskId: alert.event.taskId }),
  failureLine: "Alert webhook failed; the others are still called",
  rateKey: (alert) => `${alert.kind}|${alert.event.taskId}`,
  suppressed: (list) => `this task had an alert within ${list.rateLimit} s`,
  payload: (alert, view) =>
    webhookPayload(alert.kind as WebhookKind, taskTemplateFields(alert, view.links, { head: 0, tail: 0 })),
};
