/**
 * InfluxDB line protocol: one point per line,
 * `measurement,tag=v field=1.5,n=2i,u=3u,ok=true,s="x" <epoch ns>`, written with nanosecond
 * precision (every InfluxDB version takes it): a point's time is its epoch milliseconds followed by
 * six digits of nanoseconds within that millisecond, so that an audit event's point can carry a
 * sub-millisecond offset of its own while every other point keeps its millisecond time.
 * Unsigned integers (`3u`) exist for InfluxDB 2.x databases that already hold such fields;
 * InfluxDB 1.x refuses them.
 * Escaping follows the InfluxDB parser: measurement escapes `,` and space; tag keys, tag values
 * and field keys escape `,`, `=` and space; string field values escape `"` and `\`.
 * Known limit of the format: in names and tag values, a backslash directly before `,`, `=`, a
 * space or the end cannot be written faithfully (InfluxDB has no escape for the backslash there).
 */

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
 * Throws LineProtocolError for what no InfluxDB would accept (no measurement, no field, a number
 * that is not finite, not a safe integer or a negative unsigned one): the check encodePoint makes, without building the
 * line, so a batch can set such a point aside before it spoils the whole request.
 */
export function checkPoint(point: Point): void {
  if (point.measurement === "") throw new LineProtocolError("measurement name is empty");
  let fields = 0;
  for (const key in point.fields) {
    fields += 1;
    checkField(key, point.fields[key] as FieldValue);
  }
  if (fields === 0) throw new LineProtocolError(`point of ${point.measurement} has no fields`);
}

/** Encodes one point; throws LineProtocolError for what no InfluxDB would accept (checkPoint). */
export function encodePoint(point: Point): string {
  checkPoint(point);
  let line = escapeMeasurement(point.measurement);
  const tagKeys = Object.keys(point.tags).sort();
  for (const key of tagKeys) {
    const value = point.tags[key] ?? "";
    if (key !== "" && value !== "") line += `,${escapeKey(key)}=${escapeKey(value)}`;
  }
  let separator = " ";
  for (const key in point.fields) {
    line += `${separator}${escapeKey(key)}=${encodeField(point.fields[key] as FieldValue)}`;
    separator = ",";
  }
  return point.timestampMs === undefined ? line : `${line} ${epochNanoseconds(point)}`;
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

// Tested before replacing: most names and values need no escape, and a test allocates nothing.
const STRING_SPECIALS = /["\\]/;
const STRING_SPECIALS_ALL = /["\\]/g;
const KEY_SPECIALS = /[,= \r\n]/;
const MEASUREMENT_SPECIALS = /[, \r\n]/;

// Line protocol has no escape for line breaks outside string fields; a break would end the
// line, so it becomes a space rather than making the whole batch unwritable.
function escapeMeasurement(value: string): string {
  if (!MEASUREMENT_SPECIALS.test(value)) return value;
  return value.replace(/[\r\n]/g, " ").replace(/[, ]/g, (c) => `\\${c}`);
}

function escapeKey(value: string): string {
  if (!KEY_SPECIALS.test(value)) return value;
  return value.replace(/[\r\n]/g, " ").replace(/[,= ]/g, (c) => `\\${c}`);
}
