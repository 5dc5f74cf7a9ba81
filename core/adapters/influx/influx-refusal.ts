/**
 * Reads an InfluxDB answer refusing a write (a 4xx about the data) into a TimeseriesRefusal:
 * why, how many lines, which ones, and whether the server stored the rest. One reader for the
 * three versions; it tells them apart by the answer's shape.
 *
 * What the servers answer (InfluxDB 1.x checked against Debian's influxd 1.6 on 2026-11-27;
 * 2.x and 3 from their source and documentation):
 * - 1.x, 400 `{"error":"partial write: <reason> dropped=N"}`: every other point of the request
 *   WAS stored; N counts the points refused for the named reason. Reasons: `points beyond
 *   retention policy`; `field type conflict: input field "f" on measurement "m" is type string,
 *   already exists as type float` (names the first conflict; N counts them all);
 *   `max-values-per-tag limit exceeded (L/L): measurement="m" tag="k" value="v"` (names the
 *   first new value; N counts every point refused).
 * - 1.x, 400 `{"error":"unable to parse '<line>': <why>"}` (one entry per bad line, joined by
 *   "\n"): no line parsed, nothing stored. When some did, they are stored and the answer is
 *   `partial write: unable to parse ... dropped=0`: the count is the lines named, not N.
 * - 1.x reports one reason per request: points refused for another reason in the same request
 *   are not counted (seen: a point beyond retention beside a type conflict went uncounted).
 * - 2.x, 422 `{"code":"unprocessable entity","message":"failure writing points to database:
 *   partial write: <reason as 1.x> dropped=N"}` (2.7.11 words retention as `dropped N points
 *   outside retention policy of duration ...`): the rest is stored. 400 `{"code":"invalid",
 *   "message":"unable to parse '<line>': <why>"}`: nothing of the request is stored.
 * - 3 (Core), 400 `{"error":"partial write of line protocol occurred","data":[{"original_line",
 *   "line_number" (1-based),"error_message"}, ...]}`: every line listed was refused, the others
 *   stored. `"error":"parsing failed for write_lp endpoint"` with one `data` object: nothing
 *   stored (only when partial writes are switched off, which Steward never asks for).
 *
 * The count is the server's (exact where it counts); which lines it means is best effort, read
 * from the reason: beyond retention, the oldest lines (the policy drops everything older than
 * one bound); a type conflict, the lines carrying that field with that type in that
 * measurement; a tag limit, the lines carrying that tag value; unparsable, the lines named.
 */
import {
  REFUSAL_DETAIL_CHARS,
  type RefusalReason,
  type TimeseriesRefusal,
} from "../../destinations/index.ts";
import { type LineFacts, readLine } from "./line-protocol-lines.ts";

/** The refusal in `answer` to a request of `lines`. */
export function readRefusal(answer: string, lines: readonly string[]): TimeseriesRefusal {
  const parsed = parseJson(answer);
  if (isRecord(parsed) && parsed.data !== undefined && parsed.data !== null) {
    return listedRefusal(String(parsed.error ?? ""), parsed.data, lines);
  }
  return describedRefusal(answerText(answer), lines);
}

/** InfluxDB 3: the refused lines listed one by one. */
function listedRefusal(error: string, data: unknown, lines: readonly string[]): TimeseriesRefusal {
  const entries = (Array.isArray(data) ? data : [data]).filter(isRecord);
  const used = new Set<number>();
  for (const entry of entries) {
    const index = lineIndex(entry, lines, used);
    if (index !== undefined) used.add(index);
  }
  const first = entries[0];
  const message = String(first?.error_message ?? "");
  return {
    reason: listedReason(message),
    detail: clip(first === undefined ? error : `${error}: line ${String(first.line_number)}: ${message}`),
    count: Math.min(lines.length, Math.max(entries.length, used.size)),
    lines: [...used].sort((a, b) => a - b),
    restStored: /partial write/i.test(error),
  };
}

function lineIndex(entry: Record<string, unknown>, lines: readonly string[], used: Set<number>) {
  const original = entry.original_line;
  if (typeof original === "string") {
    const found = lines.findIndex((line, index) => line === original && !used.has(index));
    if (found >= 0) return found;
  }
  const number = Number(entry.line_number);
  return Number.isInteger(number) && number >= 1 && number <= lines.length ? number - 1 : undefined;
}

/**
 * InfluxDB 3 words each listed line's problem: a column type mismatch, a check of the table or
 * database (its series key, data model, column or table limits), or else the parser's own words.
 */
function listedReason(message: string): RefusalReason {
  if (/invalid column type|expected type|field type/i.test(message)) return "field_type_conflict";
  if (/retention/i.test(message)) return "beyond_retention";
  if (/series key|data model|table|column|database|limit/i.test(message)) return "other";
  return "unparsable";
}

/** InfluxDB 1.x and 2.x: one reason in words, `dropped=N` for a partial write. */
function describedRefusal(text: string, lines: readonly string[]): TimeseriesRefusal {
  const restStored = /\bpartial write\b/.test(text);
  const dropped = /\bdropped=(\d+)/.exec(text)?.[1];
  const detail = clip(text);
  if (text.includes("unable to parse '")) {
    const named = nameLines(unparsableLines(text), lines);
    const count = Math.max(named.length, text.split("unable to parse '").length - 1);
    return { reason: "unparsable", detail, count: Math.min(count, lines.length), lines: named, restStored };
  }
  if (!restStored || dropped === undefined) {
    // Refused as a whole (or a partial write that does not say how much): nothing counts as written.
    const all = lines.map((_, index) => index);
    return { reason: describedReason(text), detail, count: lines.length, lines: all, restStored: false };
  }
  const count = Math.min(Number(dropped), lines.length);
  const reason = describedReason(text);
  return { reason, detail, count, lines: pickLines(reason, text, lines, count), restStored };
}

function describedReason(text: string): RefusalReason {
  if (/retention policy/.test(text)) return "beyond_retention";
  if (/max-values-per-tag/.test(text)) return "max_values_per_tag";
  if (/field type conflict/.test(text)) return "field_type_conflict";
  return "other";
}

/** The refused lines the reason points to, at most `count`. */
function pickLines(reason: RefusalReason, text: string, lines: readonly string[], count: number): number[] {
  const facts = lines.map(readLine);
  let picked: number[] = [];
  if (reason === "beyond_retention") {
    // The policy refuses every point older than one bound: the oldest lines of the request.
    const order = facts
      .map((fact, index) => ({ index, time: fact?.time }))
      .filter((entry): entry is { index: number; time: bigint } => entry.time !== undefined)
      .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.index - b.index));
    picked = order.slice(0, count).map((entry) => entry.index);
  } else if (reason === "field_type_conflict") {
    const match = /input field "(.*)" on measurement "(.*)" is type (\w+)/.exec(text);
    if (match !== null) {
      const [, field, measurement, type] = match;
      picked = matching(
        facts,
        (fact) => fact.measurement === measurement && fact.fieldTypes.get(field as string) === type,
      );
    }
  } else if (reason === "max_values_per_tag") {
    const limit = tagLimitOf(text);
    if (limit !== undefined) {
      const { measurement, key, value } = limit;
      picked = matching(facts, (fact) => fact.measurement === measurement && fact.tags.get(key) === value);
    }
  }
  return picked.slice(0, count).sort((a, b) => a - b);
}

/** The measurement, tag key and first refused value a `max-values-per-tag` refusal names (Go-quoted). */
export function tagLimitOf(text: string): { measurement: string; key: string; value: string } | undefined {
  const match = /measurement=("(?:[^"\\]|\\.)*") tag=("(?:[^"\\]|\\.)*") value=("(?:[^"\\]|\\.)*")/.exec(
    text,
  );
  if (match === null) return undefined;
  const [measurement, key, value] = match.slice(1).map(unquote) as [string, string, string];
  return { measurement, key, value };
}

/** The words of an answer: the `error` (1.x, 3) or `message` (2.x) of its JSON, else the text. */
export function answerText(answer: string): string {
  const parsed = parseJson(answer);
  return isRecord(parsed) ? String(parsed.error ?? parsed.message ?? answer) : answer;
}

function matching(facts: readonly (LineFacts | undefined)[], test: (fact: LineFacts) => boolean): number[] {
  return facts.flatMap((fact, index) => (fact !== undefined && test(fact) ? [index] : []));
}

/** The lines named by `unable to parse '<line>': <why>` entries, in order. */
function unparsableLines(text: string): string[] {
  return text
    .split("unable to parse '")
    .slice(1)
    .map((entry) => entry.slice(0, Math.max(0, entry.lastIndexOf("': "))));
}

/** Indices of the named lines in the request, each line used once. */
function nameLines(named: readonly string[], lines: readonly string[]): number[] {
  const used = new Set<number>();
  for (const line of named) {
    const index = lines.findIndex((candidate, at) => candidate === line && !used.has(at));
    if (index >= 0) used.add(index);
  }
  return [...used].sort((a, b) => a - b);
}

/** A Go-quoted string (`%q`) as its value; as written when it is not one JSON can read. */
function unquote(quoted: string | undefined): string {
  if (quoted === undefined) return "";
  try {
    return String(JSON.parse(quoted));
  } catch {
    return quoted.slice(1, -1);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function clip(text: string): string {
  return text.length > REFUSAL_DETAIL_CHARS ? `${text.slice(0, REFUSAL_DETAIL_CHARS)}…` : text;
}
