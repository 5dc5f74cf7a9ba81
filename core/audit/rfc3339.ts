/**
 * RFC 3339 date-time check (section 5.6, with the section 5.6 note allowing a space or a lower-case
 * `t`/`z`). A time zone is required: `2025-01-01T00:00:00` and `2025-01-01` are rejected.
 */

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** True when `value` is an RFC 3339 date-time with a time zone and a real calendar date. */
export function isRfc3339DateTime(value: string): boolean {
  // Bounded input: a date-time is short; refusing long strings keeps the regex cheap.
  if (value.length > 64) return false;
  const m = DATE_TIME.exec(value);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12 || day < 1) return false;
  const maxDay = month === 2 && !isLeapYear(year) ? 28 : (DAYS_IN_MONTH[month - 1] ?? 0);
  if (day > maxDay) return false;
  // Second 60 is a leap second, which RFC 3339 allows.
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (m[7] !== undefined && (Number(m[8]) > 23 || Number(m[9]) > 59)) return false;
  return true;
}
