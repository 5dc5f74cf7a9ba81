/**
 * slackNotification: failed and aborted reloads posted to a Slack channel through an incoming
 * webhook (the URL carries its token: a secret, masked everywhere). Off by default; validated
 * only when on.
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

const slackKind = (basicText: string, channel: string) =>
  section({
    enable: bool(false),
    webhookURL: requiredHttpUrl(),
    /** The channel the webhook posts to when it may choose ("" = the webhook's own). */
    channel: str(channel),
    messageType: messageType(),
    basicMsgTemplate: nonEmptyStr(basicText),
    rateLimit: alertRateLimit(300),
    headScriptLogLines: scriptLogLines(10),
    tailScriptLogLines: scriptLogLines(10),
    templateFile: str(""),
    fromUser: str("Qlik Sense"),
    iconEmoji: str(":ghost:"),
  });

/** The server licence's expiry: a task kind's keys less the script log; once a day by default. */
const serverLicenseExpiry = () =>
  section({
    enable: bool(false),
    webhookURL: requiredHttpUrl(),
    channel: str("sense-server-license"),
    messageType: messageType(),
    basicMsgTemplate: nonEmptyStr("{{message}}"),
    rateLimit: alertRateLimit(LICENCE_ALERT_RATE_LIMIT),
    templateFile: str(""),
    fromUser: str("Qlik Sense"),
    iconEmoji: str(":ghost:"),
  });

/** A watched Windows service that stopped or started (serviceMonitor); Butler's keys and 30 s. */
const serviceState = (word: "stopped" | "started") =>
  section({
    enable: bool(false),
    webhookURL: requiredHttpUrl(),
    channel: str("qliksense-service-alert"),
    messageType: messageType(),
    basicMsgTemplate: nonEmptyStr(`Windows service ${word}: "{{serviceName}}" on host "{{host}}"`),
    rateLimit: alertRateLimit(30),
    templateFile: str(""),
    fromUser: str("Qlik Sense"),
    iconEmoji: str(":ghost:"),
  });

export const slackNotificationSchema = section({
  enable: bool(false),
  timeoutSeconds: alertTimeoutSeconds(),
  maxAlertsPerMinute: alertBudget(60),
  reloadTaskFailure: slackKind('Qlik Sense reload failed: "{{taskName}}"', "sense-task-failure"),
  reloadTaskAborted: slackKind('Qlik Sense reload aborted: "{{taskName}}"', "sense-task-aborted"),
  serverLicenseExpiry: serverLicenseExpiry(),
  serviceStopped: serviceState("stopped"),
  serviceStarted: serviceState("started"),
});
