/**
 * The timestamp forms the platform's log appenders emit, accepted for every source:
 * - `ts_iso`: compact ISO `20211109T153726.028+0200` (log4net `%longIso8601date`) or hyphenated
 *   ISO `2021-11-09T15:37:26.028+02:00`; the zone is required (`Z`, `+hhmm` or `+hh:mm`), because
 *   the value becomes the point's instant.
 * - `ts_local`: hyphenated ISO as above, or log4net's local `%date` form `2021-11-09 15:37:26,028`.
 * Fractions of 1–9 digits are accepted (milliseconds are kept). Parsed by hand from character
 * codes: it runs twice per log event, and a regular expression match allocates.
 */

const ZERO = 48;

/** The number in `text[start, start + count)`, or -1 when any of those characters is not a digit. */
function digits(text: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const d = text.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

interface Parsed {
  /** UTC epoch ms of the wall-clock time, before the zone offset is applied. */
  wallMs: number;
  /** Index just after the seconds or the fraction. */
  end: number;
}

/**
 * Date and time of day at the start of `text`. `compact`: `YYYYMMDDThhmmss`; otherwise
 * `YYYY-MM-DD?hh:mm:ss` with `separator` between date and time. `fraction` lists the characters
 * that may introduce a fraction.
 */
function parseDateTime(
  text: string,
  compact: boolean,
  separator: number,
  fraction: string,
): Parsed | undefined {
  let year: number;
  let month: number;
  let day: number;
  let hour: number;
  let minute: number;
  let second: number;
  let pos: number;
  if (compact) {
    if (text.length < 15 || text.charCodeAt(8) !== separator) return undefined;
    year = digits(text, 0, 4);
    month = digits(text, 4, 2);
    day = digits(text, 6, 2);
    hour = digits(text, 9, 2);
    minute = digits(text, 11, 2);
    second = digits(text, 13, 2);
    pos = 15;
  } else {
    if (
      text.length < 19 ||
      text[4] !== "-" ||
      text[7] !== "-" ||
      text.charCodeAt(10) !== separator ||
      text[13] !== ":" ||
      text[16] !== ":"
    ) {
      return undefined;
    }
    year = digits(text, 0, 4);
    month = digits(text, 5, 2);
    day = digits(text, 8, 2);
    hour = digits(text, 11, 2);
    minute = digits(text, 14, 2);
    second = digits(text, 17, 2);
    pos = 19;
  }
  // Years below 1000 are refused: Date.UTC maps 0–99 to the 1900s, and no log line is that old.
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  let millis = 0;
  if (pos < text.length && fraction.includes(text.charAt(pos))) {
    const start = pos + 1;
    let end = start;
    while (end < text.length && end - start < 9 && digits(text, end, 1) >= 0) end++;
    if (end === start) return undefined;
    const kept = Math.min(end - start, 3);
    millis = digits(text, start, kept) * 10 ** (3 - kept);
    pos = end;
  }
  return { wallMs: Date.UTC(year, month - 1, day, hour, minute, second, millis), end: pos };
}

/** Offset in minutes of a zone `Z`, `±hhmm` or `±hh:mm` filling `text` from `pos`; undefined otherwise. */
function zoneOffsetMinutes(text: string, pos: number): number | undefined {
  const rest = text.length - pos;
  const first = text[pos];
  if (first === "Z") return rest === 1 ? 0 : undefined;
  if (first !== "+" && first !== "-") return undefined;
  let hours: number;
  let minutes: number;
  if (rest === 5) {
    hours = digits(text, pos + 1, 2);
    minutes = digits(text, pos + 3, 2);
  } else if (rest === 6 && text[pos + 3] === ":") {
    hours = digits(text, pos + 1, 2);
    minutes = digits(text, pos + 4, 2);
  } else {
    return undefined;
  }
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return undefined;
  const offset = hours * 60 + minutes;
  return first === "-" ? -offset : offset;
}

const T = "T".charCodeAt(0);
const SPACE = " ".charCodeAt(0);

/** Epoch ms of a compact or hyphenated ISO timestamp with a zone; undefined when `text` is not one. */
export function isoTimestampMs(text: string): number | undefined {
  const parsed = parseDateTime(text, text[4] !== "-", T, ".,");
  if (parsed === undefined) return undefined;
  const offset = zoneOffsetMinutes(text, parsed.end);
  return offset === undefined ? undefined : parsed.wallMs - offset * 60_000;
}

/** True for the forms `ts_iso` accepts. */
export function isIsoTimestamp(text: string): boolean {
  return isoTimestampMs(text) !== undefined;
}

/** True for the forms `ts_local` accepts: hyphenated ISO (with zone) or log4net local (without). */
export function isLocalTimestamp(text: string): boolean {
  if (text[10] === " ") {
    const parsed = parseDateTime(text, false, SPACE, ",.");
    return parsed !== undefined && parsed.end === text.length;
  }
  return text[4] === "-" && isIsoTimestamp(text);
}
