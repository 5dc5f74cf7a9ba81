/**
 * A Qlik Cloud tenant's licence as Steward reads it, from the answers of
 * `GET /api/v1/licenses/overview` and `GET /api/v1/licenses/status`:
 * - one access licence reading per entry of the overview's `allotments` (license type = the
 *   allotment's `name`: `professional`, `analyzer`, `analyzer_time`), with `total` = `units`,
 *   `used` = `unitsUsed`, `available` = `units − unitsUsed`, and `overage` when the allotment gives
 *   one. Qlik gives −1 for an overage without a cap, and −1 is what is kept (a float field and a
 *   gauge value): a count of −1 cannot be mistaken for a real cap, and no invented number stands
 *   in for "unbounded". An allotment without a name or a numeric `units` is passed over, as the
 *   site's reading passes over what the platform does not give;
 * - the licence's validity in the shape of the site's server licence (server-licence.ts): the
 *   expiry date is the end of the ISO interval `valid` (`2026-01-01/2027-12-31` → `2027-12-31`),
 *   the days until it are signed the same way, and it has expired when `status` says `Expired`
 *   or its last valid day has passed. `status` is kept as Qlik words it (`Ok`, `Expired`,
 *   `Blacklisted`), for the status page.
 * The status answer's `valid` and `status` are preferred; the overview carries the same two.
 */
import type { AccessLicenceReading } from "./access-licences.ts";
import { datePart, daysUntilExpiry, type ServerLicenceReading } from "./server-licence.ts";

export interface CloudLicenceReading {
  readonly allotments: readonly AccessLicenceReading[];
  readonly licence: ServerLicenceReading;
  /** Qlik's `status` of the licence (`Ok`, `Expired`, ...); undefined when neither answer gave one. */
  readonly status: string | undefined;
}

/** The overview was not an object with a list of allotments. */
export class CloudLicenceOverviewError extends Error {
  override readonly name = "CloudLicenceOverviewError";
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const finite = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

function allotmentReading(entry: unknown): AccessLicenceReading | undefined {
  if (!isRecord(entry) || typeof entry.name !== "string" || entry.name === "" || !finite(entry.units))
    return undefined;
  const counts: Record<string, number> = { total: entry.units };
  if (finite(entry.unitsUsed)) {
    counts.used = entry.unitsUsed;
    counts.available = entry.units - entry.unitsUsed;
  }
  if (finite(entry.overage)) counts.overage = entry.overage;
  return { type: entry.name, counts };
}

/** `2026-01-01/2027-12-31` → `2027-12-31`; undefined for anything without a readable end date. */
export function validUntil(valid: unknown): string | undefined {
  if (typeof valid !== "string") return undefined;
  const end = valid.split("/")[1];
  return end === undefined ? undefined : datePart(end);
}

export function readCloudLicences(overview: unknown, status: unknown, nowMs: number): CloudLicenceReading {
  if (!isRecord(overview) || !Array.isArray(overview.allotments)) {
    throw new CloudLicenceOverviewError("the licence overview is not a JSON object with allotments");
  }
  const allotments = overview.allotments.flatMap((entry) => allotmentReading(entry) ?? []);
  const stated = isRecord(status) ? status : {};
  const expiryDate = validUntil(stated.valid) ?? validUntil(overview.valid);
  const days = expiryDate === undefined ? undefined : daysUntilExpiry(expiryDate, nowMs);
  const words = typeof stated.status === "string" ? stated.status : overview.status;
  const statusText = typeof words === "string" ? words : undefined;
  return {
    allotments,
    licence: {
      expired: statusText === "Expired" || (days !== undefined && days < 0),
      expiryDate,
      daysUntilExpiry: days,
    },
    status: statusText,
  };
}
