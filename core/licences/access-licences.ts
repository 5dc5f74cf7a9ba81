/**
 * The repository's access licence overview (`GET /qrs/license/accesstypeoverview`) as Steward
 * reads it: one entry per access type the site has switched on, each with the counts the
 * repository gives under their own names. Members the repository leaves out (or gives as
 * something other than a finite number) are left out here too, never written as `undefined` or
 * 0: a missing count is not a count of zero. Butler read user access's used tokens from a field
 * the repository does not have (`userTokens`), so that count never arrived; the repository's
 * field is `usedTokens`, read here.
 */

/** The `license_type` tag of each access type, as the dashboards filter on it. */
export const ACCESS_LICENCE_TYPES = [
  "professional",
  "analyzer",
  "analyzer_capacity",
  "token_login",
  "token_user",
  "tokens_available",
] as const;
export type AccessLicenceType = (typeof ACCESS_LICENCE_TYPES)[number];

/**
 * One access type's counts by field name (the stored field names: `allocated`, `used_minutes`, ...).
 * The type is one of ACCESS_LICENCE_TYPES for the site, or a Qlik Cloud allotment's name
 * (`professional`, `analyzer`, `analyzer_time`: cloud-licences.ts).
 */
export interface AccessLicenceReading {
  readonly type: AccessLicenceType | (string & {});
  readonly counts: Readonly<Record<string, number>>;
}

/** The overview's member, its switch, and which of its members become which stored field. */
interface TypeLayout {
  readonly type: AccessLicenceType;
  /** The overview's member; undefined for the token totals, which sit on the overview itself. */
  readonly member: string | undefined;
  /** Repository field → stored field. */
  readonly fields: Readonly<Record<string, string>>;
}

const SEAT_FIELDS = {
  allocated: "allocated",
  available: "available",
  excess: "excess",
  quarantined: "quarantined",
  total: "total",
  used: "used",
} as const;

const LAYOUTS: readonly TypeLayout[] = [
  { type: "professional", member: "professionalAccess", fields: SEAT_FIELDS },
  { type: "analyzer", member: "analyzerAccess", fields: SEAT_FIELDS },
  {
    type: "analyzer_capacity",
    member: "analyzerTimeAccess",
    fields: {
      allocatedMinutes: "allocated_minutes",
      unavailableMinutes: "unavailable_minutes",
      usedMinutes: "used_minutes",
    },
  },
  {
    type: "token_login",
    member: "loginAccess",
    fields: {
      allocatedTokens: "allocated_tokens",
      tokenCost: "token_cost",
      unavailableTokens: "unavailable_tokens",
      usedTokens: "used_tokens",
    },
  },
  {
    type: "token_user",
    member: "userAccess",
    fields: {
      allocatedTokens: "allocated_tokens",
      quarantinedTokens: "quarantined_tokens",
      tokenCost: "token_cost",
      usedTokens: "used_tokens",
    },
  },
  {
    type: "tokens_available",
    member: undefined,
    fields: { availableTokens: "available_tokens", totalTokens: "total_tokens" },
  },
];

/** The overview was not an object: nothing in it can be trusted. */
export class AccessLicenceOverviewError extends Error {
  override readonly name = "AccessLicenceOverviewError";
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function countsOf(source: Record<string, unknown>, fields: Readonly<Record<string, string>>) {
  const counts: Record<string, number> = {};
  for (const [from, to] of Object.entries(fields)) {
    const value = source[from];
    if (typeof value === "number" && Number.isFinite(value)) counts[to] = value;
  }
  return counts;
}

/**
 * The access types the site has switched on (`enabled: true`; the token totals when
 * `tokensEnabled: true`), in the order of ACCESS_LICENCE_TYPES, each with the counts it has.
 */
export function readAccessLicences(body: unknown): AccessLicenceReading[] {
  if (!isRecord(body)) {
    throw new AccessLicenceOverviewError("the access licence overview is not a JSON object");
  }
  const readings: AccessLicenceReading[] = [];
  for (const layout of LAYOUTS) {
    const source = layout.member === undefined ? body : body[layout.member];
    if (!isRecord(source)) continue;
    const switchedOn = layout.member === undefined ? body.tokensEnabled === true : source.enabled === true;
    if (!switchedOn) continue;
    const counts = countsOf(source, layout.fields);
    if (Object.keys(counts).length > 0) readings.push({ type: layout.type, counts });
  }
  return readings;
}
