/**
 * The server licence (`GET /qrs/license`) as Steward reads it: whether the repository says it has
 * expired, and its expiry date from the `Valid To:` line of `keyDetails`. The date is everything
 * after the line's first colon (Butler kept only the text up to a second colon, so a date with a
 * time lost its time). Days until expiry are signed: positive before the expiry, 0 on the day it
 * expires, negative after it (Butler gave the absolute value, which grows again after expiry and
 * so can never say "expired 3 days ago"). The licence is valid through its Valid To day: it
 * expires at the end of that day, UTC.
 */

const DAY_MS = 86_400_000;

export interface ServerLicenceReading {
  /** The repository's `isExpired`. */
  readonly expired: boolean;
  /** `YYYY-MM-DD`, or undefined when keyDetails has no readable Valid To date. */
  readonly expiryDate: string | undefined;
  /** Days until the expiry day (0 on it, negative after it); undefined without a date. */
  readonly daysUntilExpiry: number | undefined;
}

/** The licence answer was not an object. */
export class ServerLicenceError extends Error {
  override readonly name = "ServerLicenceError";
}

/** `2027-01-31`, `2027-01-31T12:00:00Z`, `2027-01-31 12:00`, `2027/01/31`: the date part as `YYYY-MM-DD`. */
export function datePart(text: string): string | undefined {
  const match = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:$|[T ])/.exec(text.trim());
  if (match === null) return undefined;
  const [, year, month, day] = match as unknown as [string, string, string, string];
  const iso = `${year}-${month.padStart(2, "0")}-${day.padStart(2, "0")}`;
  const parsed = Date.parse(`${iso}T00:00:00Z`);
  // Date.parse rolls 2027-02-30 over to March: a date that does not exist is no date.
  return Number.isNaN(parsed) || new Date(parsed).toISOString().slice(0, 10) !== iso ? undefined : iso;
}

/** The Valid To date of `keyDetails` (lines separated by `\n` or `\r\n`), as `YYYY-MM-DD`. */
export function validToDate(keyDetails: string): string | undefined {
  for (const line of keyDetails.split(/\r?\n/)) {
    const at = line.indexOf("Valid To:");
    if (at === -1) continue;
    return datePart(line.slice(at + "Valid To:".length));
  }
  return undefined;
}

/**
 * Calendar days (UTC) from the day of `nowMs` to the expiry day: N on the day N days before it, 0
 * on the expiry day itself, -1 the day after.
 */
export function daysUntilExpiry(expiryDate: string, nowMs: number): number {
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  return Math.round((Date.parse(`${expiryDate}T00:00:00Z`) - today) / DAY_MS);
}

export function readServerLicence(body: unknown, nowMs: number): ServerLicenceReading {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ServerLicenceError("the server licence answer is not a JSON object");
  }
  const record = body as { isExpired?: unknown; keyDetails?: unknown };
  const expiryDate = typeof record.keyDetails === "string" ? validToDate(record.keyDetails) : undefined;
  return {
    expired: record.isExpired === true,
    expiryDate,
    daysUntilExpiry: expiryDate === undefined ? undefined : daysUntilExpiry(expiryDate, nowMs),
  };
}
