/**
 * Butler's licence and version monitors as Steward's one `licenseMonitor` section: Butler ran
 * `qlikSenseLicense.licenseMonitor` (access licences), `.serverLicenseMonitor`, `.licenseRelease`
 * and `qlikSenseVersion.versionMonitor` on a schedule each; Steward reads everything on one
 * schedule (`licenseMonitor.frequency`, taken from the access-licence monitor), so that one run
 * gives a dashboard row the values of one moment. Paths are relative to `Butler`.
 */
import { drop, lift, type MigrationRule, move, rename } from "./product-rules.ts";

const ONE_SCHEDULE =
  "Steward reads licences and the version on one schedule, licenseMonitor.frequency (taken from qlikSenseLicense.licenseMonitor.frequency)";

/** Each monitor's `destination.influxDb` feeds the one time-series switch and tags of licenseMonitor. */
const destinationRules = (monitor: string): [string, MigrationRule][] => [
  [`${monitor}.destination`, lift],
  [`${monitor}.destination.influxDb`, move("licenseMonitor.timeseriesdb")],
];

export const BUTLER_LICENCE_RULES: readonly [string, MigrationRule][] = [
  ["qlikSenseLicense", lift],
  ["qlikSenseLicense.licenseMonitor", move("licenseMonitor.accessLicenses")],
  ["qlikSenseLicense.licenseMonitor.frequency", move("licenseMonitor.frequency")],
  ...destinationRules("qlikSenseLicense.licenseMonitor"),
  ["qlikSenseLicense.serverLicenseMonitor", move("licenseMonitor.serverLicense")],
  ["qlikSenseLicense.serverLicenseMonitor.frequency", drop(ONE_SCHEDULE)],
  ["qlikSenseLicense.serverLicenseMonitor.alert", lift],
  ["qlikSenseLicense.serverLicenseMonitor.alert.thresholdDays", rename("alertDaysBefore")],
  ...destinationRules("qlikSenseLicense.serverLicenseMonitor"),
  ["qlikSenseLicense.serverLicenseMonitor.destination.mqtt", move("licenseMonitor.sendToMQTT")],
  ...["sendRecurring", "sendAlert"].map((key): [string, MigrationRule] => [
    `qlikSenseLicense.serverLicenseMonitor.destination.mqtt.${key}`,
    drop("licenseMonitor.sendToMQTT has one switch (enable) for the licence data and the expiry alert"),
  ]),
  ["qlikSenseLicense.licenseRelease", move("licenseMonitor.licenseRelease")],
  ["qlikSenseLicense.licenseRelease.frequency", drop(ONE_SCHEDULE)],
  ...destinationRules("qlikSenseLicense.licenseRelease"),
  ["qlikSenseVersion", lift],
  ["qlikSenseVersion.versionMonitor", move("licenseMonitor.version")],
  ["qlikSenseVersion.versionMonitor.frequency", drop(ONE_SCHEDULE)],
  [
    "qlikSenseVersion.versionMonitor.rejectUnauthorized",
    drop("Steward checks the platform's certificates as platform.rejectUnauthorized says, for every call"),
  ],
  ...destinationRules("qlikSenseVersion.versionMonitor"),
  ["mqttConfig.qlikSenseServerLicenseTopic", move("licenseMonitor.sendToMQTT.qlikSenseServerLicenseTopic")],
  [
    "mqttConfig.qlikSenseServerLicenseExpireTopic",
    move("licenseMonitor.sendToMQTT.qlikSenseServerLicenseExpireTopic"),
  ],
];
