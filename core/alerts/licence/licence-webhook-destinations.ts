/**
 * The server licence's webhooks, under Butler's keys and switches: the expiry alert to
 * `webhookNotification.qlikSenseServerLicenseExpiryAlert` (with `serverLicense.webhook.sendAlert`)
 * and the status after every monitor run to `qlikSenseServerLicenseMonitor` (with
 * `sendRecurring`), each list with one rate limit (Butler's keys `license-alert` and
 * `license-monitor`). Unlike Butler, one webhook that fails never stops the others.
 */
import type { WebhookNotificationConfig } from "../../config/schema/config.ts";
import type { LicenceExpiryAlert, ServerLicenceStatus } from "../../licences/license-expiry-alert.ts";
import type { Logger } from "../../ports.ts";
import type { AlertSendResult } from "../../task-events/alert-destination.ts";
import { admitAlert, type DestinationBudget } from "../alert-budget.ts";
import type { AlertRateLimit } from "../alert-rate-limit.ts";
import type { WebhookCaller, WebhookValue } from "../webhook-caller.ts";
import { callWebhookList } from "../webhook-list.ts";
import {
  LICENCE_EXPIRY_KIND,
  LICENCE_STATUS_KIND,
  licenceAlertPayload,
  licenceStatusPayload,
} from "./licence-alert-fields.ts";
import type { LicenceDestination } from "./licence-destination.ts";

export interface LicenceWebhookDeps {
  readonly caller: WebhookCaller;
  readonly logger: Logger;
  readonly rateLimit: AlertRateLimit;
  /** The webhooks' budget of alerts per minute, shared with the task alerts' webhooks. */
  readonly budget?: DestinationBudget | undefined;
}

type WebhookList = WebhookNotificationConfig["qlikSenseServerLicenseMonitor"];

function licenceWebhooks<T>(
  config: WebhookNotificationConfig,
  list: WebhookList,
  what: { kind: string; key: string; payload(value: T): Record<string, WebhookValue> },
  deps: LicenceWebhookDeps,
): LicenceDestination<T> {
  return {
    name: "webhook",
    kind: what.kind,
    async send(value): Promise<AlertSendResult> {
      const { webhooks } = list;
      if (webhooks.length === 0) return { outcome: "skipped", reason: "no webhook" };
      const refused = admitAlert(deps.budget, () =>
        deps.rateLimit.take(`webhook|${what.key}`, list.rateLimit)
          ? undefined
          : { outcome: "suppressed", reason: `a licence webhook was called within ${list.rateLimit} s` },
      );
      if (refused !== undefined) return refused;
      return callWebhookList(webhooks, what.payload(value), {
        caller: deps.caller,
        timeoutSeconds: config.timeoutSeconds,
        onFailure(webhook, reason) {
          deps.logger.warn("Licence webhook failed; the others are still called", {
            kind: what.kind,
            webhook,
            reason,
          });
        },
      });
    },
  };
}

export function licenceAlertWebhooks(
  config: WebhookNotificationConfig,
  deps: LicenceWebhookDeps,
): LicenceDestination<LicenceExpiryAlert> {
  const what = { kind: LICENCE_EXPIRY_KIND, key: "license-alert", payload: licenceAlertPayload };
  return licenceWebhooks(config, config.qlikSenseServerLicenseExpiryAlert, what, deps);
}

export function licenceStatusWebhooks(
  config: WebhookNotificationConfig,
  deps: LicenceWebhookDeps,
): LicenceDestination<ServerLicenceStatus> {
  const what = { kind: LICENCE_STATUS_KIND, key: "license-monitor", payload: licenceStatusPayload };
  return licenceWebhooks(config, config.qlikSenseServerLicenseMonitor, what, deps);
}
