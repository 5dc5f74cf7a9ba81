/**
 * The server licence's webhooks, under Butler's keys and switches: the expiry alert to
 * `webhookNotification.qlikSenseServerLicenseExpiryAlert` (with `serverLicense.webhook.sendAlert`)
 * and the status after every monitor run to `qlikSenseServerLicenseMonitor` (with
 * `sendRecurring`), each list with one rate limit (Butler's keys `license-alert` and
 * `license-monitor`). The payloads are Butler's four fields (null where the licence has no date)
 * and event texts, so that receivers built for Butler keep working. Unlike Butler, one webhook
 * that fails never stops the others.
 */
import {
  LICENCE_EXPIRY_KIND,
  LICENCE_STATUS_KIND,
  type LicenceExpiryAlert,
  type LicenceStatusAlert,
} from "../licence-alert.ts";
import { LICENCE_EVENT } from "../licence-fields.ts";
import type { WebhookValue } from "./webhook-client.ts";
import type { WebhookConfig, WebhookMessages } from "./webhook-messages.ts";

type Payload = Record<string, WebhookValue>;

/** The expiry alert webhook's payload. */
export function licenceAlertPayload(alert: LicenceExpiryAlert): Payload {
  return {
    event: LICENCE_EVENT[alert.state],
    licenseExpired: alert.state === "expired",
    expiryDateStr: alert.expiryDate ?? null,
    daysUntilExpiry: alert.daysUntilExpiry ?? null,
  };
}

/** The recurring status webhook's payload, after every run that read the licence. */
export function licenceStatusPayload(status: LicenceStatusAlert): Payload {
  return {
    event: LICENCE_EVENT.status,
    licenseExpired: status.expired || (status.daysUntilExpiry ?? 0) < 0,
    expiryDateStr: status.expiryDate ?? null,
    daysUntilExpiry: status.daysUntilExpiry ?? null,
  };
}

/** Whether the licence webhooks of one kind are switched on, as Butler read its switches. */
function webhookOn(config: WebhookConfig, which: "sendAlert" | "sendRecurring"): boolean {
  const switches = config.licenseMonitor.serverLicense.webhook;
  return config.webhookNotification.enable && switches.enable && switches[which].enable;
}

const common = {
  context: (alert: { kind: string }) => ({ kind: alert.kind }),
  failureLine: "Licence webhook failed; the others are still called",
  suppressed: (list: { rateLimit: number }) => `a licence webhook was called within ${list.rateLimit} s`,
};

export const licenceExpiryWebhook: WebhookMessages<LicenceExpiryAlert> = {
  ...common,
  kinds: [LICENCE_EXPIRY_KIND],
  handles: (config) => webhookOn(config, "sendAlert"),
  list: (config) => config.webhookNotification.qlikSenseServerLicenseExpiryAlert,
  rateKey: () => "webhook|license-alert",
  payload: licenceAlertPayload,
};

export const licenceStatusWebhook: WebhookMessages<LicenceStatusAlert> = {
  ...common,
  kinds: [LICENCE_STATUS_KIND],
  handles: (config) => webhookOn(config, "sendRecurring"),
  list: (config) => config.webhookNotification.qlikSenseServerLicenseMonitor,
  rateKey: () => "webhook|license-monitor",
  payload: licenceStatusPayload,
};
