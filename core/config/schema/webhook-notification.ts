/**
 * webhookNotification: failed and aborted reloads sent to the operator's own HTTP endpoints,
 * under Butler's keys. Each kind has a list of webhooks (called one after another; one that
 * fails never stops the others) and one rate limit per task for the whole list. Off by default;
 * validated only when on.
 */
import * as v from "valibot";
import { isHttpUrlAllowingCredentials } from "../validators.ts";
import {
  alertBudget,
  alertRateLimit,
  alertTimeoutSeconds,
  LICENCE_ALERT_RATE_LIMIT,
} from "./alert-common.ts";
import { bool, list, requiredFilePath, requiredFormat, section, str } from "./primitives.ts";

export const WEBHOOK_METHODS = ["GET", "POST", "PUT"] as const;

const webhookSchema = v.object({
  description: str(""),
  /** `user:pass@` is sent as Basic authentication, as Butler did: webhooks have no header setting. */
  webhookURL: requiredFormat(isHttpUrlAllowingCredentials, "must be an http(s) URL"),
  /** Any letter case, as Butler accepted it. */
  httpMethod: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (s) => (WEBHOOK_METHODS as readonly string[]).includes(s.toUpperCase()),
        "must be GET, POST or PUT",
      ),
    ),
    "POST",
  ),
  cert: section({
    enable: bool(false),
    rejectUnauthorized: bool(true),
    /** PEM file of the CA that signed the endpoint's certificate, read at every call. */
    certCA: requiredFilePath(),
  }),
});

const webhookKind = (rateLimit = 300) =>
  section({ rateLimit: alertRateLimit(rateLimit), webhooks: list(webhookSchema) });

export const webhookNotificationSchema = section({
  enable: bool(false),
  timeoutSeconds: alertTimeoutSeconds(),
  maxAlertsPerMinute: alertBudget(120),
  reloadTaskFailure: webhookKind(),
  reloadTaskAborted: webhookKind(),
  /** The server licence's status, called after every licence monitor run (Butler's key). */
  qlikSenseServerLicenseMonitor: webhookKind(),
  /** The server licence's expiry alert (Butler's key); once a day by default, as the other licence alerts. */
  qlikSenseServerLicenseExpiryAlert: webhookKind(LICENCE_ALERT_RATE_LIMIT),
  /**
   * A watched Windows service's change of state (Butler's key), one rate limit per service for the
   * list; `enable` is Butler's `serviceMonitor.alertDestination.webhook.enable`.
   */
  serviceMonitor: section({
    enable: bool(false),
    rateLimit: alertRateLimit(300),
    webhooks: list(webhookSchema),
  }),
});
