/**
 * Reads back the lines of a line-protocol request body, as InfluxDB does, for naming the lines
 * of a refused request (influx-refusal.ts): where each line ends (a string field may hold a line
 * break, so a body is not simply split at "\n"), and a line's measurement, tags, field types and
 * time. Only on the refusal path: a write that succeeds never comes here.
 *
 * As InfluxDB's parser: a backslash always takes the next character with it; in names and tag
 * values only `\,`, `\=` and `\ ` are unescaped (any other pair stays as written); a double quote
 * opens a string field only in the field section, where `\"` and `\\` are its escapes.
 */
import type { FieldValue } from "../../destinations/line-protocol.ts";

export interface LineFacts {
  measurement: string;
  tags: ReadonlyMap<string, string>;
  /** Field name → the type InfluxDB gives it (`float`, `integer`, `string`, `boolean`, `unsigned`). */
  fieldTypes: ReadonlyMap<string, FieldValue["kind"] | "unsigned">;
  /** Epoch time in the request's precision; undefined when the line has none. */
  time: bigint | undefined;
}

/** The body's lines, without their line breaks; a line break inside a string field stays in its line. */
export function splitLines(body: string): string[] {
  const lines: string[] = [];
  let start = 0;
  let section = 0; // 0: measurement and tags, 1: fields, 2: time
  let quoted = false;
  for (let at = 0; at < body.length; at += 1) {
    const c = body[at];
    if (c === "\\") {
      at += 1;
    } else if (c === '"' && section === 1) {
      quoted = !quoted;
    } else if (c === " " && !quoted) {
      section = Math.min(2, section + 1);
    } else if (c === "\n" && !quoted) {
      lines.push(body.slice(start, at));
      start = at + 1;
      section = 0;
    }
  }
  if (start < body.length) lines.push(body.slice(start));
  return lines;
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
