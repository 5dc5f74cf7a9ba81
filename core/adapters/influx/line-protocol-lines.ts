/**
 * Reads back one line of a line-protocol request body, as InfluxDB does, for naming the lines of
 * a refused request (influx-refusal.ts, tag-limit-repair.ts): a line's measurement, tags, field
 * types and time. Only on the refusal path: a write that succeeds never comes here. Where the
 * body's lines end is core/shared/line-protocol-split.ts's (InfluxDB's `scanLine`).
 *
 * As InfluxDB's parser: a backslash always takes the next character with it; in names and tag
 * values only `\,`, `\=` and `\ ` are unescaped (any other pair stays as written, so a doubled
 * backslash before them reads as two, as InfluxDB 1.x and 2.x store it); a double quote opens a
 * string field only in the field section, where `\"` and `\\` are its escapes.
 */
import type { FieldValue } from "../../shared/line-protocol.ts";

export interface LineFacts {
  measurement: string;
  tags: ReadonlyMap<string, string>;
  /** Field name → the type InfluxDB gives it (`float`, `integer`, `string`, `boolean`, `unsigned`). */
  fieldTypes: ReadonlyMap<string, FieldValue["kind"] | "unsigned">;
  /** Epoch time in the request's precision; undefined when the line has none. */
  time: bigint | undefined;
}

/** What the line holds, or undefined when it cannot be read as line protocol. */
export function readLine(line: string): LineFacts | undefined {
  let at = 0;
  const readName = (stops: string): string => {
    let out = "";
    while (at < line.length && !stops.includes(line[at] as string)) {
      if (line[at] === "\\" && at + 1 < line.length) {
        const next = line[at + 1] as string;
        out += ", =".includes(next) ? next : `\\${next}`;
        at += 2;
      } else {
        out += line[at];
        at += 1;
      }
    }
    return out;
  };
  const measurement = readName(", ");
  const tags = new Map<string, string>();
  while (line[at] === ",") {
    at += 1;
    const key = readName("=, ");
    if (line[at] !== "=") return undefined;
    at += 1;
    tags.set(key, readName(", "));
  }
  if (measurement === "" || line[at] !== " ") return undefined;
  at += 1;
  const fieldTypes = new Map<string, FieldValue["kind"] | "unsigned">();
  for (;;) {
    const key = readName("=, ");
    if (key === "" || line[at] !== "=") return undefined;
    at += 1;
    if (line[at] === '"') {
      at += 1;
      while (at < line.length && line[at] !== '"') at += line[at] === "\\" ? 2 : 1;
      if (line[at] !== '"') return undefined;
      at += 1;
      fieldTypes.set(key, "string");
    } else {
      const kind = scalarKind(readName(", "));
      if (kind === undefined) return undefined;
      fieldTypes.set(key, kind);
    }
    if (line[at] !== ",") break;
    at += 1;
  }
  if (at === line.length) return { measurement, tags, fieldTypes, time: undefined };
  const time = line.slice(at + 1);
  if (line[at] !== " " || !/^-?\d+$/.test(time)) return undefined;
  return { measurement, tags, fieldTypes, time: BigInt(time) };
}

function scalarKind(raw: string): FieldValue["kind"] | "unsigned" | undefined {
  if (/^-?\d+i$/.test(raw)) return "integer";
  if (/^\d+u$/.test(raw)) return "unsigned";
  if (/^(t|T|true|True|TRUE|f|F|false|False|FALSE)$/.test(raw)) return "boolean";
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(raw)) return "float";
  return undefined;
}
