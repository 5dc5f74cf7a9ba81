/**
 * How deeply a JSON request body may nest: at most 64 levels (an object or array counts one
 * level, the outermost one included), and where a deeper body passed that limit, as a JSON
 * pointer.
 *
 * Why a limit: JSON.parse and the schema checks cope with any depth, but V8's JSON.stringify
 * does not (a RangeError, "Maximum call stack size exceeded", from about 10,000 levels on), and
 * every destination encodes what it stores. An audit event nested 100,000 brackets deep fits in
 * the 1 MiB body limit; taken, it could never be written, and it was written by nothing: the
 * destinations' writes kept failing on it. Steward's own bodies nest a handful of levels (an
 * audit event's `objectData` fewer than ten), so 64 leaves room for any client and none for that.
 * Refused at the door, such a body never reaches a queue.
 *
 * Why one rule for every JSON body (the ingest API and the REST API alike): no body of either
 * needs more, a REST body is stored (the key-value store) or passed on (messages) as well, and
 * one rule is one thing to document and test.
 *
 * Cheap on the hot path: a body with no more than 64 `{` and `[` in all (brackets inside strings
 * counted too) cannot nest deeper, and counting them takes a few native `indexOf` calls (measured
 * 2026-12-06: 0.14–0.5 µs for audit events of 0.4–4.4 kB, against 2–10 µs for JSON.parse of the
 * same text). Only a body with more is scanned, once, counting brackets outside strings (strings
 * skipped with `indexOf`: 0.6–4 µs for those events); the pointer is worked out, in a second pass,
 * only for a body that is refused.
 */
import { escapePointerToken } from "../../core/shared/json-pointer.ts";

/** The deepest nesting a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/**
 * The JSON pointer of the first object or array in `text` (valid JSON) that opens a level deeper
 * than `maxDepth`, or undefined when `text` nests no deeper than that.
 */
export function tooDeepAt(text: string, maxDepth = MAX_JSON_DEPTH): string | undefined {
  if (openers(text, maxDepth + 1) <= maxDepth) return undefined;
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = closingQuote(text, i);
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth += 1;
      if (depth > maxDepth) return pointerPastDepth(text, maxDepth);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth -= 1;
  }
  return undefined;
}

/** How many `{` and `[` the text holds, strings included; counting stops at `enough`. */
function openers(text: string, enough: number): number {
  let count = 0;
  for (let at = text.indexOf("{"); at !== -1 && count < enough; at = text.indexOf("{", at + 1)) count += 1;
  for (let at = text.indexOf("["); at !== -1 && count < enough; at = text.indexOf("[", at + 1)) count += 1;
  return count;
}

/** Index of the quote that ends the string opened at `open` (the text's end if none does). */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at === -1) return text.length;
    // Escaped when an odd number of backslashes stand right before it. Each run of backslashes
    // is looked at for the one quote after it only, so this stays linear in the text.
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return at;
  }
}

/**
 * The second pass, for a refused body only: follows each open object's current member name and
 * each open array's current index, up to the container that opens level `maxDepth + 1`.
 */
function pointerPastDepth(text: string, maxDepth: number): string {
  /** Per open container: the member name or index the text is at. */
  const path: (string | number)[] = [];
  /** Per open container: whether it is an array. */
  const arrays: boolean[] = [];
  let expectingName = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = closingQuote(text, i);
      if (expectingName) path[path.length - 1] = JSON.parse(text.slice(i, end + 1)) as string;
      expectingName = false;
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (arrays.length === maxDepth) break;
      arrays.push(c === OPEN_ARRAY);
      path.push(c === OPEN_ARRAY ? 0 : "");
      expectingName = c === OPEN_OBJECT;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      arrays.pop();
      path.pop();
    } else if (c === COMMA) {
      const top = path.length - 1;
      if (arrays[top] === true) path[top] = (path[top] as number) + 1;
      else expectingName = true;
    }
  }
  return path.map((token) => `/${escapePointerToken(String(token))}`).join("");
}
