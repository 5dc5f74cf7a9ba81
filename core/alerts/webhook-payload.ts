/**
 * What an outgoing webhook receives about a failed or aborted reload: Butler's fields under
 * Butler's names, so that receivers built for Butler keep working; every value a text.
 */
import type { TemplateFields } from "../task-events/template-fields.ts";

export type WebhookKind = "reloadTaskFailure" | "reloadTaskAborted";

const EVENT: Readonly<Record<WebhookKind, string>> = {
  reloadTaskFailure: "Qlik Sense reload failed",
  reloadTaskAborted: "Qlik Sense reload aborted",
};

export function webhookPayload(kind: WebhookKind, fields: TemplateFields): Record<string, string> {
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
