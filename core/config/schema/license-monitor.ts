/**
 * licenseMonitor: access licences, the server licence's expiry and the platform's version, read
 * from the platform on one schedule, and the release of access licences left unused. Butler kept
 * these in four sections (`qlikSenseLicense.serverLicenseMonitor`, `.licenseMonitor`,
 * `.licenseRelease`, `qlikSenseVersion.versionMonitor`); here they are one section with one
 * schedule, so that one run reads everything a dashboard row shows at the same moment.
 */
import * as v from "valibot";
import {
  bool,
  int,
  list,
  nameValueList,
  nonEmptyStr,
  optionalHost,
  port,
  requiredStr,
  section,
} from "./primitives.ts";
import { scheduleExpression } from "./self-monitoring.ts";

/** A user flag the release rules look at: `ignore` (the flag does not matter), `yes` or `no` (case-insensitive). */
export const RELEASE_FLAG_VALUES = ["ignore", "yes", "no"] as const;
export type ReleaseFlagRule = (typeof RELEASE_FLAG_VALUES)[number];

const releaseFlag = () =>
  v.optional(
    v.pipe(
      v.string(),
      v.transform((text) => text.trim().toLowerCase()),
      v.picklist(RELEASE_FLAG_VALUES, "must be ignore, yes or no"),
    ),
    "ignore",
  );

/**
 * Days a licence may go unused before it is released: 1 to 3650. A licence is released when it was
 * last used before the end of the UTC day that many days ago, so 0 would put the cut-off at the
 * end of today and release every licence, those in use today included: refused with that reason.
 */
const releaseThresholdDays = () =>
  v.optional(
    v.pipe(
      v.number(),
      v.integer("must be an integer"),
      v.minValue(
        1,
        "must be at least 1: 0 would release every licence of the type, those in use today included",
      ),
      v.maxValue(3650, "must be between 1 and 3650"),
    ),
    30,
  );

/** One access licence type the release looks at, and how long a licence may go unused. */
const releaseType = () => section({ enable: bool(true), releaseThresholdDays: releaseThresholdDays() });

export const licenseMonitorSchema = section({
  enable: bool(false),
  frequency: scheduleExpression("every 6 hours"),
  timeseriesdb: section({
    enable: bool(true),
    tag: section({ static: nameValueList() }),
  }),
  sendToMQTT: section({
    enable: bool(false),
    qlikSenseServerLicenseTopic: nonEmptyStr("qliksense/qliksense_server_license"),
    qlikSenseServerLicenseExpireTopic: nonEmptyStr("qliksense/qliksense_server_license_expire"),
  }),
  accessLicenses: section({ enable: bool(true) }),
  serverLicense: section({
    enable: bool(true),
    alertDaysBefore: int(30, 0, 3650),
    /**
     * Butler's switches of the server licence's webhooks (webhookNotification's
     * `qlikSenseServerLicenseMonitor` and `qlikSenseServerLicenseExpiryAlert` lists): kept so that
     * a converted file behaves as before. Email, Teams and Slack have their own `serverLicenseExpiry`.
     */
    webhook: section({
      enable: bool(false),
      sendRecurring: section({ enable: bool(false) }),
      sendAlert: section({ enable: bool(false) }),
    }),
  }),
  version: section({
    enable: bool(true),
    host: optionalHost(""),
    port: port(9032),
  }),
  licenseRelease: section({
    enable: bool(false),
    dryRun: bool(true),
    neverRelease: section({
      user: list(v.object({ userDir: requiredStr, userId: requiredStr })),
      tag: list(requiredStr),
      customProperty: nameValueList(),
      userDirectory: list(requiredStr),
      inactive: releaseFlag(),
      blocked: releaseFlag(),
      removedExternally: releaseFlag(),
    }),
    licenseType: section({ professional: releaseType(), analyzer: releaseType() }),
  }),
});
