/**
 * InfluxDB line protocol: one point per line,
 * `measurement,tag=v field=1.5,n=2i,u=3u,ok=true,s="x" <epoch ns>`, written with nanosecond
 * precision (every InfluxDB version takes it): a point's time is its epoch milliseconds followed by
 * six digits of nanoseconds within that millisecond, so that an audit event's point can carry a
 * sub-millisecond offset of its own while every other point keeps its millisecond time.
 * Unsigned integers (`3u`) exist for InfluxDB 2.x databases that already hold such fields;
 * InfluxDB 1.x refuses them.
 *
 * Escaping, so that every InfluxDB version reads exactly the points sent (what they store is in
 * docs/configuration.md#what-influxdb-stores):
 * - String field values: `"` and `\` get a backslash.
 * - Names (measurement, tag keys, tag values, field keys) escape their separators with a
 *   backslash: `,` and space, and `=` except in the measurement. A line break or tab becomes a
 *   space (no escape exists for them there, and InfluxDB 3 ends a name at a tab).
 * - A backslash in a name directly before a character InfluxDB unescapes there (a separator
 *   above, and `"` in the measurement and field keys, `=` in the measurement) is doubled. InfluxDB
 *   1.x and 2.x take any separator that follows a backslash as escaped, while their line
 *   splitter and InfluxDB 3 read backslashes in pairs; only a doubled backslash followed by an
 *   escaped separator reads the same way in both (`a\,b` is written `a\\\,b`).
 * - Backslashes at the end of a name are dropped: no InfluxDB version stores a name or tag value
 *   ending in one (1.x and 2.x take the separator after it as escaped, which merges the rest of
 *   the line and could swallow the lines after it; InfluxDB 3 refuses the line). A name left
 *   empty is as if absent: a tag is left out, a measurement or field key refused.
 * Every line is checked, once encoded, to be read by InfluxDB as exactly one line
 * (line-protocol-split.ts), so that a body of them splits into as many lines as points; a point
 * whose line would not is refused as a LineProtocolError instead of spoiling its request.
 */

import { notOneLine } from "./line-protocol-split.ts";

export type FieldValue =
  | { kind: "float"; value: number }
  | { kind: "integer"; value: number }
  | { kind: "unsigned"; value: number }
  | { kind: "string"; value: string }
  | { kind: "boolean"; value: boolean };

export interface Point {
  measurement: string;
  tags: Readonly<Record<string, string>>;
  fields: Readonly<Record<string, FieldValue>>;
  /** Epoch ms; absent = the server's write time. */
  timestampMs?: number;
  /** Nanoseconds after `timestampMs` (an integer, 0–999,999); absent = 0. */
  subMsNs?: number;
}

export class LineProtocolError extends Error {
  override name = "LineProtocolError";
}

export const floatField = (value: number): FieldValue => ({ kind: "float", value });
export const integerField = (value: number): FieldValue => ({ kind: "integer", value });
export const unsignedField = (value: number): FieldValue => ({ kind: "unsigned", value });
export const stringField = (value: string): FieldValue => ({ kind: "string", value });
export const booleanField = (value: boolean): FieldValue => ({ kind: "boolean", value });

/**
 * Throws LineProtocolError for what no InfluxDB would accept (no measurement, no field, an empty
 * field key, a number that is not finite, not a safe integer or a negative unsigned one): the
 * check encodePoint makes without building the line, so a batch can set such a point aside
 * before it spoils the whole request. encodePoint may still refuse a point that passes it, when
 * its line would not be read as one line (see the header).
 */
export function checkPoint(point: Point): void {
  if (isEmptyName(point.measurement)) throw new LineProtocolError("measurement name is empty");
  let fields = 0;
  for (const key in point.fields) {
    fields += 1;
    if (isEmptyName(key)) throw new LineProtocolError(`point of ${point.measurement} has an empty field key`);
    checkField(key, point.fields[key] as FieldValue);
  }
  if (fields === 0) throw new LineProtocolError(`point of ${point.measurement} has no fields`);
}

/**
 * Encodes one point; throws LineProtocolError for what no InfluxDB would accept (checkPoint) and
 * for a point whose line InfluxDB would not read as exactly one line.
 */
export function encodePoint(point: Point): string {
  checkPoint(point);
  let line = escapeName(point.measurement, MEASUREMENT);
  const tagKeys = Object.keys(point.tags).sort();
  for (const key of tagKeys) {
    const name = escapeName(key, TAG);
    const value = escapeName(point.tags[key] ?? "", TAG);
    if (name !== "" && value !== "") line += `,${name}=${value}`;
  }
  let separator = " ";
  for (const key in point.fields) {
    line += `${separator}${escapeName(key, FIELD_KEY)}=${encodeField(point.fields[key] as FieldValue)}`;
    separator = ",";
  }
  if (point.timestampMs !== undefined) line += ` ${epochNanoseconds(point)}`;
  const why = notOneLine(line);
  if (why !== undefined) {
    throw new LineProtocolError(`point of ${point.measurement} cannot be written as one line: ${why}`);
  }
  return line;
}

/** Newline-joined points, ready as a request body. */
export function encodePoints(points: readonly Point[]): string {
  return points.map(encodePoint).join("\n");
}

/**
 * The point's time in epoch nanoseconds, as text: beyond 2^53, so never through a double. After
 * 1970 the milliseconds and the six digits after them are joined as text (nothing allocated but
 * the string); up to 1970 it goes through BigInt, where joining the digits would be wrong.
 */
function epochNanoseconds(point: Point): string {
  const ms = Math.trunc(point.timestampMs as number);
  const ns = Math.min(999_999, Math.max(0, Math.trunc(point.subMsNs ?? 0)));
  if (ms > 0) return ns === 0 ? `${ms}000000` : `${ms}${String(ns).padStart(6, "0")}`;
  return String(BigInt(ms) * 1_000_000n + BigInt(ns));
}

function checkField(key: string, field: FieldValue): void {
  if (field.kind === "float" && !Number.isFinite(field.value)) {
    throw new LineProtocolError(`field ${key} is not a finite number`);
  }
  if (field.kind === "integer" && !Number.isSafeInteger(field.value)) {
    throw new LineProtocolError(`field ${key} is not a safe integer`);
  }
  if (field.kind === "unsigned" && !(Number.isSafeInteger(field.value) && field.value >= 0)) {
    throw new LineProtocolError(`field ${key} is not a safe non-negative integer`);
  }
}

function encodeField(field: FieldValue): string {
  switch (field.kind) {
    case "float":
      return String(field.value);
    case "integer":
      return `${field.value}i`;
    case "unsigned":
      return `${field.value}u`;
    case "boolean":
      return field.value ? "true" : "false";
    case "string":
      return `"${STRING_SPECIALS.test(field.value) ? field.value.replace(STRING_SPECIALS_ALL, "\\$&") : field.value}"`;
  }
}

// Tested before replacing: most strings need no escape, and a test allocates nothing.
const STRING_SPECIALS = /["\\]/;
const STRING_SPECIALS_ALL = /["\\]/g;

/** How a kind of name is escaped: the separators it escapes, and before what a backslash is doubled. */
interface NameRule {
  /** Characters written with a backslash before them. */
  readonly escaped: string;
  /** Characters InfluxDB unescapes in this kind of name: a backslash before one is doubled. */
  readonly doubledBefore: string;
  /** Any character this rule changes: the escaped ones, backslash, line break and tab. */
  readonly special: RegExp;
  /** The escaped characters, all of them (for names without backslash, line break or tab). */
  readonly escapedAll: RegExp;
}

const MEASUREMENT: NameRule = {
  escaped: ", ",
  doubledBefore: ', ="',
  special: /[, \\\r\n\t]/,
  escapedAll: /[, ]/g,
};
const TAG: NameRule = {
  escaped: ",= ",
  doubledBefore: ",= ",
  special: /[,= \\\r\n\t]/,
  escapedAll: /[,= ]/g,
};
const FIELD_KEY: NameRule = { ...TAG, doubledBefore: ',= "' };

const BACKSLASH = "\\";
const BACKSLASH_OR_BREAK = /[\\\r\n\t]/;

/**
 * The name as written (see the header): line breaks and tabs as spaces, backslashes at the end
 * dropped, a run of backslashes before a character InfluxDB unescapes doubled, separators
 * escaped. Names without a backslash, line break or tab (nearly all) take one replace; the others
 * one pass, copying the text between special characters in slices. No pattern looks at runs of
 * backslashes: a name of many of them (a datagram's tag value) would make a backtracking one
 * quadratic.
 */
function escapeName(value: string, rule: NameRule): string {
  if (!rule.special.test(value)) return value;
  if (!BACKSLASH_OR_BREAK.test(value)) return value.replace(rule.escapedAll, "\\$&");
  let end = value.length;
  while (end > 0 && value[end - 1] === BACKSLASH) end -= 1;
  let out = "";
  let plain = 0; // start of the text not yet copied
  for (let at = 0; at < end; at += 1) {
    const c = value[at] as string;
    if (c === BACKSLASH) {
      let run = at + 1;
      while (value[run] === BACKSLASH) run += 1;
      // Never past `end` (trailing backslashes were dropped); a line break or tab becomes an
      // escaped space.
      const next = value[run] as string;
      if (rule.doubledBefore.includes(next) || isLineBreakOrTab(next)) {
        out += value.slice(plain, run) + value.slice(at, run);
        plain = run;
      }
      at = run - 1;
    } else if (isLineBreakOrTab(c) || rule.escaped.includes(c)) {
      out += `${value.slice(plain, at)}\\${isLineBreakOrTab(c) ? " " : c}`;
      plain = at + 1;
    }
  }
  return out + value.slice(plain, end);
}

function isLineBreakOrTab(c: string): boolean {
  return c === "\n" || c === "\r" || c === "\t";
}

/** True when nothing of the name would be written: empty, or backslashes only. */
function isEmptyName(name: string): boolean {
  for (let at = 0; at < name.length; at += 1) if (name[at] !== BACKSLASH) return false;
  return true;
}
