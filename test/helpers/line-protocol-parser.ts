/**
 * A strict line-protocol parser for the tests' InfluxDB stand-in, following InfluxDB's own
 * parser: unescaped `,`/space end measurement and tags, `\` escapes `,`, `=` and space,
 * string fields are double-quoted with `\"` and `\\`, integers end in `i`, unsigned integers
 * (InfluxDB 2.x and 3.x) in `u`, booleans are t/T/true/True/TRUE/f/F/false/False/FALSE, anything
 * else must be a finite float, and a series key may not pass 65,535 bytes. Times are read as epoch
 * nanoseconds, the precision Steward writes with.
 */

export type ParsedValue = number | string | boolean;
export type ParsedType = "float" | "integer" | "unsigned" | "string" | "boolean";

export interface ParsedPoint {
  measurement: string;
  tags: Record<string, string>;
  fields: Record<string, { type: ParsedType; value: ParsedValue }>;
  /** Epoch ms (the nanoseconds cut to their millisecond). */
  timestamp: number | undefined;
  /** The nanoseconds after `timestamp`; present only when not 0. */
  subMsNs?: number;
}

export class LineProtocolSyntaxError extends Error {
  override name = "LineProtocolSyntaxError";
}

const MAX_KEY_BYTES = 65_535;

export function parseLineProtocol(body: string): ParsedPoint[] {
  return parseLines(body).map((parsed) => {
    if ("error" in parsed) throw parsed.error;
    return parsed.point;
  });
}

/** Each line on its own, as a server that takes the good lines of a request reads it. */
export function parseLines(
  body: string,
): ({ line: string; point: ParsedPoint } | { line: string; error: LineProtocolSyntaxError })[] {
  return splitLines(body)
    .filter((line) => line.trim() !== "" && !line.startsWith("#"))
    .map((line) => {
      try {
        return { line, point: parseLine(line) };
      } catch (error) {
        if (error instanceof LineProtocolSyntaxError) return { line, error };
        throw error;
      }
    });
}

function splitLines(body: string): string[] {
  const lines: string[] = [];
  let current = "";
  let quoted = false;
  let fieldsStarted = 0;
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i]!;
    if (c === "\\" && i + 1 < body.length) {
      current += c + body[i + 1];
      i += 1;
      continue;
    }
    if (c === " " && !quoted) fieldsStarted += 1;
    if (c === '"' && fieldsStarted >= 1) quoted = !quoted;
    if (c === "\n" && !quoted) {
      lines.push(current);
      current = "";
      fieldsStarted = 0;
      continue;
    }
    current += c;
  }
  lines.push(current);
  return lines;
}

function parseLine(line: string): ParsedPoint {
  let at = 0;
  const readUntil = (stops: string): string => {
    let out = "";
    while (at < line.length && !stops.includes(line[at]!)) {
      // As InfluxDB 1.x: a backslash always takes the next character with it (so it never ends
      // the name), and only `\,`, `\ ` and `\=` are unescaped; any other pair stays as written.
      if (line[at] === "\\" && at + 1 < line.length) {
        const next = line[at + 1]!;
        out += ", =".includes(next) ? next : `\\${next}`;
        at += 2;
      } else {
        out += line[at];
        at += 1;
      }
    }
    return out;
  };
  const measurement = readUntil(", ");
  if (measurement === "") throw new LineProtocolSyntaxError(`missing measurement in ${JSON.stringify(line)}`);
  const tags: Record<string, string> = {};
  while (line[at] === ",") {
    at += 1;
    const key = readUntil("=, ");
    if (line[at] !== "=") throw new LineProtocolSyntaxError(`missing tag value in ${JSON.stringify(line)}`);
    at += 1;
    const value = readUntil(", ");
    if (key === "" || value === "")
      throw new LineProtocolSyntaxError(`empty tag key or value in ${JSON.stringify(line)}`);
    tags[key] = value;
  }
  if (line[at] !== " ") throw new LineProtocolSyntaxError(`missing fields in ${JSON.stringify(line)}`);
  // As InfluxDB: a series key (measurement and tags, as written) over 65,535 bytes does not parse
  // (1.x and 2.x `max key length exceeded`; InfluxDB 3 takes no name over 64 KiB).
  if (Buffer.byteLength(line.slice(0, at)) > MAX_KEY_BYTES) {
    throw new LineProtocolSyntaxError(`max key length exceeded in ${JSON.stringify(line.slice(0, 80))}…`);
  }
  at += 1;
  const fields: ParsedPoint["fields"] = {};
  for (;;) {
    const key = readUntil("=, ");
    if (key === "" || line[at] !== "=")
      throw new LineProtocolSyntaxError(`bad field key in ${JSON.stringify(line)}`);
    at += 1;
    if (line[at] === '"') {
      at += 1;
      let value = "";
      while (at < line.length && line[at] !== '"') {
        if (line[at] === "\\" && (line[at + 1] === '"' || line[at + 1] === "\\")) {
          value += line[at + 1];
          at += 2;
        } else {
          value += line[at];
          at += 1;
        }
      }
      if (line[at] !== '"')
        throw new LineProtocolSyntaxError(`unterminated string in ${JSON.stringify(line)}`);
      at += 1;
      fields[key] = { type: "string", value };
    } else {
      fields[key] = scalar(readUntil(", "), line);
    }
    if (line[at] === ",") {
      at += 1;
      continue;
    }
    break;
  }
  let timestampNs: bigint | undefined;
  if (line[at] === " ") {
    const raw = line.slice(at + 1);
    if (!/^-?\d+$/.test(raw)) throw new LineProtocolSyntaxError(`bad timestamp in ${JSON.stringify(line)}`);
    timestampNs = BigInt(raw);
  } else if (at !== line.length) {
    throw new LineProtocolSyntaxError(`unexpected text in ${JSON.stringify(line)}`);
  }
  if (timestampNs === undefined) return { measurement, tags, fields, timestamp: undefined };
  // The millisecond the time falls in (rounding down, also before 1970) and what is left of it.
  const ms = timestampNs / 1_000_000n - (timestampNs < 0n && timestampNs % 1_000_000n !== 0n ? 1n : 0n);
  const subMsNs = Number(timestampNs - ms * 1_000_000n);
  const point = { measurement, tags, fields, timestamp: Number(ms) };
  return subMsNs === 0 ? point : { ...point, subMsNs };
}

function scalar(raw: string, line: string): { type: ParsedType; value: ParsedValue } {
  if (/^-?\d+i$/.test(raw)) return { type: "integer", value: Number(raw.slice(0, -1)) };
  if (/^\d+u$/.test(raw)) return { type: "unsigned", value: Number(raw.slice(0, -1)) };
  if (/^(t|T|true|True|TRUE)$/.test(raw)) return { type: "boolean", value: true };
  if (/^(f|F|false|False|FALSE)$/.test(raw)) return { type: "boolean", value: false };
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(raw)) return { type: "float", value: Number(raw) };
  throw new LineProtocolSyntaxError(`invalid field value ${JSON.stringify(raw)} in ${JSON.stringify(line)}`);
}
