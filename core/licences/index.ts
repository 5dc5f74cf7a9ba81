/**
 * The licences module's only door: code outside core/licences/ imports this file and nothing else
 * of the module, so its files can be rearranged without touching their users. It gives what the
 * licence monitor reads and writes (the licence source port, the server licence, the access
 * licence overview, the platform's version, a Qlik Cloud tenant's licence), how unused access licences are released (the
 * never-release rules and one release pass), and what a reading becomes (points, broker
 * messages, scrape gauges).
 */
export { type AccessLicenceReading, readAccessLicences } from "./access-licences.ts";
export {
  CloudLicenceOverviewError,
  type CloudLicenceReading,
  readCloudLicences,
} from "./cloud-licences.ts";
export { declareLicenceGauges, type LicenceGauges, licenceGaugesOf } from "./license-gauges.ts";
export { expiryAlertText, serverLicenceMessages } from "./license-messages.ts";
export {
  accessLicencePoints,
  releasePoint,
  type StaticTags,
  serverLicencePoint,
  versionPoint,
} from "./license-points.ts";
export type { LicenseSource } from "./license-source.ts";
export { type ReleaseOutcomeKind, type ReleaseSummary, runReleasePass } from "./release-pass.ts";
export type { AccessLicenceEntry, LicenceUser, ReleasableType } from "./release-rules.ts";
export { readServerLicence, type ServerLicenceReading } from "./server-licence.ts";
export { readVersionInfo, type VersionReading } from "./version-info.ts";
