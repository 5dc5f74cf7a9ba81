/**
 * emailNotification: task alerts by email (reload, distribute and preload tasks), under Butler's keys so that an existing
 * configuration converts section for section. One SMTP server for every kind; per kind who
 * receives (custom properties of the task, the global list, the app owner), the rate limit per
 * task and recipient, the subject and the body template (built in unless a file is named).
 * Off by default; validated only when on.
 */
import * as v from "valibot";
import { isEmailAddress, isSenderAddress } from "../../shared/email-address.ts";
import {
  alertBudget,
  alertRateLimit,
  alertTimeoutSeconds,
  LICENCE_ALERT_RATE_LIMIT,
  scriptLogLines,
} from "./alert-common.ts";
import {
  bool,
  list,
  nonEmptyStr,
  port,
  requiredFormat,
  requiredHost,
  requiredStr,
  requiredText,
  section,
  str,
} from "./primitives.ts";

const ownerList = () => list(v.object({ directory: requiredStr, userId: requiredStr }));

const emailAddress = v.pipe(v.string(), v.check(isEmailAddress, "must be an email address"));

const smtpSchema = section({
  host: requiredHost(),
  port: port(25),
  /** true: TLS from the first byte (port 465); false: plain, upgraded by STARTTLS when offered. */
  secure: bool(false),
  tls: section({
    serverName: str(""),
    ignoreTLS: bool(false),
    requireTLS: bool(false),
    rejectUnauthorized: bool(true),
  }),
  auth: section({ enable: bool(false), user: requiredText(), password: str("") }),
  timeoutSeconds: alertTimeoutSeconds(),
});

interface KindDefaults {
  readonly rateLimit: number;
  readonly subject: string;
  readonly enableProperty: string;
  readonly addressProperty: string;
}

const commonKindEntries = (d: KindDefaults) => ({
  enable: bool(false),
  alertEnableByCustomProperty: section({
    enable: bool(false),
    customPropertyName: nonEmptyStr(d.enableProperty),
    enabledValue: nonEmptyStr("Yes"),
  }),
  alertEnabledByEmailAddress: section({ customPropertyName: nonEmptyStr(d.addressProperty) }),
  rateLimit: alertRateLimit(d.rateLimit),
  priority: v.optional(v.picklist(["high", "normal", "low"], 'must be "high", "normal" or "low"'), "high"),
  subject: nonEmptyStr(d.subject),
  /** "" = the built-in body; else the directory of `htmlTemplateFile`. */
  bodyFileDirectory: str(""),
  htmlTemplateFile: str(""),
  fromAddress: requiredFormat(isSenderAddress, 'must be an address or "Name <address>"'),
  recipients: list(emailAddress),
});

/** Reload tasks have a script log; distribute and preload tasks do not. */
const scriptLogEntries = () => ({
  headScriptLogLines: scriptLogLines(15),
  tailScriptLogLines: scriptLogLines(15),
});

const appOwnerAlert = () =>
  section({
    enable: bool(false),
    includeOwner: section({ includeAll: bool(true), user: ownerList() }),
    excludeOwner: section({ user: ownerList() }),
  });

/**
 * The server licence's expiry (raised by the licence monitor): the keys of a task kind less those
 * that need a task (custom properties, app owners, script log). One email a day by default: the
 * monitor runs every 6 hours, and a licence that expires in 20 days is news once a day, not four
 * times. The subject's default is the built-in sentence (`message`).
 */
const serverLicenseExpiry = () =>
  section({
    enable: bool(false),
    rateLimit: alertRateLimit(LICENCE_ALERT_RATE_LIMIT),
    priority: v.optional(v.picklist(["high", "normal", "low"], 'must be "high", "normal" or "low"'), "high"),
    subject: nonEmptyStr("{{message}}"),
    /** "" = the built-in body; else the directory of `htmlTemplateFile`. */
    bodyFileDirectory: str(""),
    htmlTemplateFile: str(""),
    fromAddress: requiredFormat(isSenderAddress, 'must be an address or "Name <address>"'),
    recipients: list(emailAddress),
  });

/**
 * A watched Windows service that stopped or started (serviceMonitor): Butler's keys, with an
 * `enable` that Butler kept in `serviceMonitor.alertDestination.email`. One email per recipient
 * and service within `rateLimit` seconds (Butler's 30).
 */
const serviceState = (subject: string) =>
  section({
    enable: bool(false),
    rateLimit: alertRateLimit(30),
    priority: v.optional(v.picklist(["high", "normal", "low"], 'must be "high", "normal" or "low"'), "high"),
    subject: nonEmptyStr(subject),
    /** "" = the built-in body; else the directory of `htmlTemplateFile`. */
    bodyFileDirectory: str(""),
    htmlTemplateFile: str(""),
    fromAddress: requiredFormat(isSenderAddress, 'must be an address or "Name <address>"'),
    recipients: list(emailAddress),
  });

export const emailNotificationSchema = section({
  enable: bool(false),
  smtp: smtpSchema,
  maxAlertsPerMinute: alertBudget(60),
  reloadTaskFailure: section({
    ...commonKindEntries({
      rateLimit: 600,
      subject: 'Qlik Sense reload failed: "{{taskName}}"',
      enableProperty: "Butler_FailedAlertEnableEmail",
      addressProperty: "Butler_FailedAlertSendToEmail",
    }),
    ...scriptLogEntries(),
    appOwnerAlert: appOwnerAlert(),
  }),
  reloadTaskAborted: section({
    ...commonKindEntries({
      rateLimit: 600,
      subject: 'Qlik Sense reload aborted: "{{taskName}}"',
      enableProperty: "Butler_AbortedAlertEnableEmail",
      addressProperty: "Butler_AbortedAlertSendToEmail",
    }),
    ...scriptLogEntries(),
    appOwnerAlert: appOwnerAlert(),
  }),
  reloadTaskSuccess: section({
    ...commonKindEntries({
      rateLimit: 60,
      subject: 'Qlik Sense reload succeeded: "{{taskName}}"',
      enableProperty: "Butler_SuccessAlertEnableEmail",
      addressProperty: "Butler_SuccessAlertSendToEmail",
    }),
    ...scriptLogEntries(),
  }),
  distributeTaskFailure: section(
    commonKindEntries({
      rateLimit: 600,
      subject: 'Qlik Sense distribute task failed: "{{taskName}}"',
      enableProperty: "Butler_DistributeFailedAlertEnableEmail",
      addressProperty: "Butler_DistributeFailedAlertSendToEmail",
    }),
  ),
  distributeTaskSuccess: section(
    commonKindEntries({
      rateLimit: 600,
      subject: 'Qlik Sense distribute task succeeded: "{{taskName}}"',
      enableProperty: "Butler_DistributeSuccessAlertEnableEmail",
      addressProperty: "Butler_DistributeSuccessAlertSendToEmail",
    }),
  ),
  preloadTaskFailure: section(
    commonKindEntries({
      rateLimit: 600,
      subject: 'Qlik Sense preload task failed: "{{taskName}}"',
      enableProperty: "Butler_PreloadFailedAlertEnableEmail",
      addressProperty: "Butler_PreloadFailedAlertSendToEmail",
    }),
  ),
  preloadTaskSuccess: section(
    commonKindEntries({
      rateLimit: 600,
      subject: 'Qlik Sense preload task succeeded: "{{taskName}}"',
      enableProperty: "Butler_PreloadSuccessAlertEnableEmail",
      addressProperty: "Butler_PreloadSuccessAlertSendToEmail",
    }),
  ),
  serverLicenseExpiry: serverLicenseExpiry(),
  serviceStopped: serviceState('Windows service stopped on host {{host}}: "{{serviceDisplayName}}"'),
  serviceStarted: serviceState('Windows service started on host {{host}}: "{{serviceDisplayName}}"'),
});
