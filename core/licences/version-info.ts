/**
 * The platform's version as its `/v1/systeminfo` endpoint (port 9032 of the central node)
 * describes it: product name, version, release label and the rest, every member a string as the
 * platform gives it. That endpoint is read rather than the repository's `/qrs/about` because
 * `about` gives only the build version and date, while the dashboards' version table shows the
 * product name and release label (e.g. "Qlik Sense Enterprise on Windows", "May 2025 Patch 3").
 */

/** Stored field name ← systeminfo member, in the stored order. */
export const VERSION_FIELDS = {
  content_hash: "contentHash",
  sense_id: "senseId",
  version: "version",
  deployment_type: "deploymentType",
  release_label: "releaseLabel",
  deprecated_product_version: "deprecatedProductVersion",
  product_name: "productName",
  copyright_year_range: "copyrightYearRange",
} as const;

export type VersionField = keyof typeof VERSION_FIELDS;

/** The members the platform gave as strings, by stored field name. */
export type VersionReading = Readonly<Partial<Record<VersionField, string>>>;

/** The systeminfo answer was not an object, or had no version. */
export class VersionInfoError extends Error {
  override readonly name = "VersionInfoError";
}

export function readVersionInfo(body: unknown): VersionReading {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new VersionInfoError("the systeminfo answer is not a JSON object");
  }
  const record = body as Record<string, unknown>;
  const reading: Partial<Record<VersionField, string>> = {};
  for (const [field, member] of Object.entries(VERSION_FIELDS) as [VersionField, string][]) {
    const value = record[member];
    if (typeof value === "string") reading[field] = value;
  }
  if (reading.version === undefined) throw new VersionInfoError("the systeminfo answer has no version");
  return reading;
}
