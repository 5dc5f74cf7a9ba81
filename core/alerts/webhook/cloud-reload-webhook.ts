/**
 * The Qlik Cloud reload alerts as outgoing webhook calls, under the site's lists: a failed cloud
 * reload calls every webhook of `webhookNotification.reloadTaskFailure`, a canceled one those of
 * `reloadTaskAborted`, one rate limit per tenant and app for the whole list. The payload has the
 * fields a receiver built for the site's reload webhooks reads (`event`, `appName`, `appId`,
 * `user`, `executionId`, `logMessage`, ...), the event naming Qlik Cloud, and the cloud's own
 * (`tenantName`, `tenantUrl`, `spaceName`, `reloadId`, `status`, `errorCode`, `appUrl`).
 */
import {
  CLOUD_RELOAD_ALERT_KINDS,
  CLOUD_RELOAD_BLOCKS,
  type CloudReloadAlert,
} from "../cloud-reload-alert.ts";
import { cloudReloadTemplateFields } from "../cloud-reload-fields.ts";
import type { WebhookMessages } from "./webhook-messages.ts";

export function cloudReloadWebhookPayload(alert: CloudReloadAlert): Record<string, string> {
  const fields = cloudReloadTemplateFields(alert, { head: 0, tail: 0 });
  return {
    event: fields.heading,
    tenantName: fields.tenantName,
    tenantUrl: fields.tenantUrl,
    appName: fields.appName,
    appId: fields.appId,
    appUrl: fields.appUrl,
    spaceName: fields.spaceName,
    appOwnerName: fields.appOwnerName,
    appOwnerEmail: fields.appOwnerEmail,
    user: fields.reloadedBy,
    reloadId: fields.reloadId,
    executionId: fields.reloadId,
    status: fields.status,
    errorCode: fields.errorCode,
    logMessage: fields.logMessage,
    finishedAt: fields.finishedAt,
  };
}

export const cloudReloadWebhook: WebhookMessages<CloudReloadAlert> = {
  kinds: CLOUD_RELOAD_ALERT_KINDS,
  handles: ({ webhookNotification: config }, kind) => {
    const block = CLOUD_RELOAD_BLOCKS[kind as CloudReloadAlert["kind"]];
    return config.enable && block !== undefined && config[block].webhooks.length > 0;
  },
  list: ({ webhookNotification: config }, kind) =>
    config[CLOUD_RELOAD_BLOCKS[kind as CloudReloadAlert["kind"]]],
  context: (alert) => ({ kind: alert.kind, tenant: alert.tenant.name, appId: alert.run.appId }),
  failureLine: "Qlik Cloud alert webhook failed; the others are still called",
  rateKey: (alert) => `cloud|${alert.kind}|${alert.tenant.name}|${alert.run.appId}`,
  suppressed: (list) => `this app had an alert within ${list.rateLimit} s`,
  payload: (alert) => cloudReloadWebhookPayload(alert),
};
