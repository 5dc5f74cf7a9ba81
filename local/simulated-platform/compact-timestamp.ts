/**
 * The engine's compact timestamp (`20211109T153726.028+0200`): local time with its offset, as
 * the health check's `started` member carries it.
 */

const pad = (value: number, width = 2) => String(value).padStart(width, "0");

/** `YYYYMMDDThhmmss.mmm±zzzz` of `ms` in this process's time zone. */
export function formatCompactTimestamp(ms: number): string {
  const date = new Date(ms);
  const offset = -date.getTimezoneOffset();
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return (
    `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}` +
    `T${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}` +
    `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`
  );
}
