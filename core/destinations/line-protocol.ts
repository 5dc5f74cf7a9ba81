/**
 * InfluxDB line protocol: one point per line,
 * `measurement,tag=v field=1.5,n=2i,ok=true,s="x" <epoch ms>`, written with precision=ms.
 * Escaping follows the InfluxDB parser: measurement escapes `,` and space; tag keys, tag values
 * and field keys escape `,`, `=` and space; string field values escape `"` and `\`.
 * Known limit of the format: in names and tag values, a backslash directly before `,`, `=`, a
 * space or the end cannot be written faithfully (InfluxDB has no escape for the backslash there).
 */

export type FieldValue =
  | { kind: "float"; value: number }
  | { kind: "integer"; value: number }
  | { kind: "string"; value: string }
  | { kind: "boolean"; value: boolean };

export interface Point {
  measurement: string;
  tags: Readonly<Record<string, string>>;
  fields: Readonly<Record<string, FieldValue>>;
  /** Epoch ms; absent = the server's write time. */
  timestampMs?: number;
}

export class LineProtocolError extends Error {
  override name = "LineProtocolError";
}

export const floatField = (value: number): FieldValue => ({ kind: "float", value });
export const integerField = (value: number): FieldValue => ({ kind: "integer", value });
export const stringField = (value: string): FieldValue => ({ kind: "string", value });
export const booleanField = (value: boolean): FieldValue => ({ kind: "boolean", value });

/** Encodes one point; throws LineProtocolError for what no InfluxDB would accept. */
export function encodePoint(point: Point): string {
  if (point.measurement === "") throw new LineProtocolError("measurement name is empty");
  const tagPart = Object.keys(point.tags)
    .filter((key) => key !== "" && point.tags[key] !== "")
    .sort()
    .map((key) => `,${escapeKey(key)}=${escapeKey(point.tags[key] ?? "")}`)
    .join("");
  const fieldEntries = Object.entries(point.fields);
  if (fieldEntries.length === 0) {
    throw new LineProtocolError(`point of ${point.measurement} has no fields`);
  }
  const fieldPart = fieldEntries
    .map(([key, field]) => `${escapeKey(key)}=${encodeField(key, field)}`)
    .join(",");
  const time = point.timestampMs === undefined ? "" : ` ${Math.trunc(point.timestampMs)}`;
  return `${escapeMeasurement(point.measurement)}${tagPart} ${fieldPart}${time}`;
}

/** Newline-joined points, ready as a request body. */
export function encodePoints(points: readonly Point[]): string {
  return points.map(encodePoint).join("\n");
}

function encodeField(key: string, field: FieldValue): string {
  switch (field.kind) {
    case "float":
      if (!Number.isFinite(field.value)) throw new LineProtocolError(`field ${key} is not a finite number`);
      return String(field.value);
    case "integer":
      if (!Number.isSafeInteger(field.value))
        throw new LineProtocolError(`field ${key} is not a safe integer`);
      return `${field.value}i`;
    case "boolean":
      return field.value ? "true" : "false";
    case "string":
      return `"${field.value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
  }
}

// Line protocol has no escape for line breaks outside string fields; a break would end the
// line, so it becomes a space rather than making the whole batch unwritable.
function escapeMeasurement(value: string): string {
  return value.replace(/[\r\n]/g, " ").replace(/[, ]/g, (c) => `\\${c}`);
}

function escapeKey(value: string): string {
  return value.replace(/[\r\n]/g, " ").replace(/[,= ]/g, (c) => `\\${c}`);
}
