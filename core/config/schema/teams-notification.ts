/**
 * teamsNotification: failed and aborted reloads posted to a Microsoft Teams channel through a
 * Power Automate Workflows URL (the URL carries its access key: a secret, masked everywhere).
 * Both message types send an Adaptive Card, the only thing a Workflows trigger accepts.
 * Off by default; validated only when on.
 */
import {
  alertBudget,
  alertRateLimit,
  alertTimeoutSeconds,
  LICENCE_ALERT_RATE_LIMIT,
  messageType,
  scriptLogLines,
} from "./alert-common.ts";
import { bool, nonEmptyStr, requiredHttpUrl, section, str } from "./primitives.ts";

const teamsKind = (basicText: string) =>
  section({
    enable: bool(false),
    webhookURL: requiredHttpUrl(),
    messageType: messageType(),
    basicMsgTemplate: nonEmptyStr(basicText),
    rateLimit: alertRateLimit(300),
    headScriptLogLines: scriptLogLines(10),
    tailScriptLogLines: scriptLogLines(10),
    /** The template file of `formatted`: a Handlebars file rendering to the message JSON. */
    templateFile: str(""),
  });

/** The server licence's expiry: a task kind's keys less the script log; once a day by default. */
const serverLicenseExpiry = () =>
  section({
    enable: bool(false),
    webhookURL: requiredHttpUrl(),
    messageType: messageType(),
    basicMsgTemplate: nonEmptyStr("{{message}}"),
    rateLimit: alertRateLimit(LICENCE_ALERT_RATE_LIMIT),
    templateFile: str(""),
  });

/** A watched Windows service that stopped or started (serviceMonitor); Butler's keys and 30 s. */
const serviceState = (word: "stopped" | "started") =>
  section({
    enable: bool(false),
    webhookURL: requiredHttpUrl(),
    messageType: messageType(),
    basicMsgTemplate: nonEmptyStr(`Windows service ${word}: "{{serviceName}}" on host "{{host}}"`),
    rateLimit: alertRateLimit(30),
    templateFile: str(""),
  });

export const teamsNotificationSchema = section({
  enable: bool(false),
  timeoutSeconds: alertTimeoutSeconds(),
  maxAlertsPerMinute: alertBudget(30),
  reloadTaskFailure: teamsKind('Qlik Sense reload failed: "{{taskName}}"'),
  reloadTaskAborted: teamsKind('Qlik Sense reload aborted: "{{taskName}}"'),
  serverLicenseExpiry: serverLicenseExpiry(),
  serviceStopped: serviceState("stopped"),
  serviceStarted: serviceState("started"),
});
