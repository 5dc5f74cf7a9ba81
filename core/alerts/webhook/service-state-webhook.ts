/**
 * A watched Windows service's change of state to `webhookNotification.serviceMonitor` (Butler's
 * list), switched on by its `enable` (Butler's `serviceMonitor.alertDestination.webhook.enable`),
 * one rate limit per service for the whole list. The payload carries Butler's service fields
 * (`host`, `serviceName`, `serviceDisplayName`, `serviceFriendlyName`, `serviceStatus`,
 * `servicePrevStatus`, `serviceStartType`, `serviceExePath`) with an event text, so that receivers
 * built for Butler's messages keep working. Unlike Butler, one webhook that fails never stops the
 * others.
 */
import { SERVICE_STATE_ALERT_KINDS, type ServiceStateAlert } from "../service-state-alert.ts";
import { serviceFacts } from "../service-state-fields.ts";
import type { WebhookValue } from "./webhook-client.ts";
import type { WebhookMessages } from "./webhook-messages.ts";

export function serviceStatePayload(alert: ServiceStateAlert): Record<string, WebhookValue> {
  return serviceFacts(alert);
}

export const serviceStateWebhook: WebhookMessages<ServiceStateAlert> = {
  kinds: SERVICE_STATE_ALERT_KINDS,
  handles: (config) => config.webhookNotification.enable && config.webhookNotification.serviceMonitor.enable,
  list: (config) => config.webhookNotification.serviceMonitor,
  context: (alert) => ({ kind: alert.kind, host: alert.host, service: alert.service }),
  failureLine: "Windows service webhook failed; the others are still called",
  rateKey: (alert) => `webhook|${alert.kind}|${JSON.stringify([alert.host, alert.service])}`,
  suppressed: (list) => `this service called the webhooks within ${list.rateLimit} s`,
  payload: serviceStatePayload,
};
