/**
 * The time-series points of the licence monitor, named as the shipped and SenseOps dashboards
 * read them: `qlik_sense_license` (one point per access type, tag `license_type`),
 * `qlik_sense_server_license`, `qlik_sense_version` and `qlik_sense_license_release` (one point
 * per released licence, tags `license_type` and `user`). Every count is a float, the expiry flag
 * a boolean and every text a string, on every database version: the types Butler's points had,
 * so that a database Butler wrote to takes Steward's points into the same fields. Every point
 * carries the section's static tags (`qs_env`, which the dashboards filter on, among them); a
 * static tag never replaces a tag the point itself sets. A Qlik Cloud tenant's licence points
 * (cloud-licences.ts) are written by the same functions with its `tenant` tag (the tenant's
 * `name`) and its own static tags; the site's carry no `tenant` tag, so the dashboards' tenant
 * variable shows the site's at "All" beside every tenant's.
 */
import {
  booleanField,
  type FieldValue,
  floatField,
  type Point,
  stringField,
} from "../shared/line-protocol.ts";
import type { AccessLicenceReading } from "./access-licences.ts";
import type { ReleasableType } from "./release-rules.ts";
import type { ServerLicenceReading } from "./server-licence.ts";
import type { VersionReading } from "./version-info.ts";

export const LICENSE_MEASUREMENT = "qlik_sense_license";
export const SERVER_LICENSE_MEASUREMENT = "qlik_sense_server_license";
export const VERSION_MEASUREMENT = "qlik_sense_version";
export const LICENSE_RELEASE_MEASUREMENT = "qlik_sense_license_release";

export type StaticTags = Readonly<Record<string, string>>;

const withTags = (staticTags: StaticTags, own: Record<string, string> = {}) => ({ ...staticTags, ...own });

/** `{tenant}` for a Qlik Cloud tenant's points, nothing for the site's. */
const tenantTag = (tenant: string | undefined): Record<string, string> =>
  tenant === undefined ? {} : { tenant };

export function accessLicencePoints(
  readings: readonly AccessLicenceReading[],
  staticTags: StaticTags,
  atMs: number,
  tenant?: string,
): Point[] {
  return readings.map((reading) => ({
    measurement: LICENSE_MEASUREMENT,
    tags: withTags(staticTags, { license_type: reading.type, ...tenantTag(tenant) }),
    fields: Object.fromEntries(
      Object.entries(reading.counts).map(([name, value]) => [name, floatField(value)]),
    ),
    timestampMs: atMs,
  }));
}

/** Without a readable expiry date the point still carries the expired flag. */
export function serverLicencePoint(
  reading: ServerLicenceReading,
  staticTags: StaticTags,
  atMs: number,
  tenant?: string,
): Point {
  const fields: Record<string, FieldValue> = { license_expired: booleanField(reading.expired) };
  if (reading.expiryDate !== undefined) fields.expiry_date = stringField(reading.expiryDate);
  if (reading.daysUntilExpiry !== undefined) fields.days_until_expiry = floatField(reading.daysUntilExpiry);
  return {
    measurement: SERVER_LICENSE_MEASUREMENT,
    tags: withTags(staticTags, tenantTag(tenant)),
    fields,
    timestampMs: atMs,
  };
}

export function versionPoint(reading: VersionReading, staticTags: StaticTags, atMs: number): Point {
  const fields = Object.fromEntries(
    Object.entries(reading).map(([name, value]) => [name, stringField(value as string)]),
  );
  return { measurement: VERSION_MEASUREMENT, tags: withTags(staticTags), fields, timestampMs: atMs };
}

export interface ReleasedLicence {
  readonly type: ReleasableType;
  /** `<userDirectory>\<userId>`. */
  readonly user: string;
  readonly daysSinceLastUse: number;
}

export function releasePoint(released: ReleasedLicence, staticTags: StaticTags, atMs: number): Point {
  return {
    measurement: LICENSE_RELEASE_MEASUREMENT,
    tags: withTags(staticTags, { license_type: released.type, user: released.user }),
    fields: { days_since_last_use: floatField(released.daysSinceLastUse) },
    timestampMs: atMs,
  };
}
