/**
 * Where InfluxDB ends the lines of a line-protocol request body: the same rule as its `scanLine`
 * (InfluxDB 1.x and 2.x, `models/points.go`; InfluxDB 3 ports it as `split_lines`), so that
 * Steward counts a body's lines as the server will. The encoder checks every line it makes with
 * it (line-protocol.ts), and a refused request's lines are named with it
 * (core/adapters/influx/influx-refusal.ts).
 *
 * The rule, character by character:
 * - a backslash takes the next character with it, anywhere (even a line break, even inside a
 *   string field);
 * - the first unescaped space starts the field section; from there on, unescaped `=` and `,`
 *   outside a string are counted, and a double quote opens or closes a string only where more
 *   `=` than `,` have been seen (a field value, not a field key);
 * - a line break outside a string ends the line.
 * A line that is blank (spaces, tabs or NULs only) or starts with `#` after them is skipped as
 * a comment: it holds no point.
 */

const BACKSLASH = 0x5c;
const SPACE = 0x20;
const TAB = 0x09;
const NUL = 0x00;
const QUOTE = 0x22;
const EQUALS = 0x3d;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const HASH = 0x23;

interface LineScan {
  /** Index of the line break that ends the line, or the text's length when none does. */
  end: number;
  /** The text ended inside a string field: a line break after it would not end the line. */
  quoted: boolean;
  /** The text ended with a backslash that escapes what comes after it. */
  escaping: boolean;
}

function scanLine(text: string, start: number): LineScan {
  let quoted = false;
  let fields = false;
  let equals = 0;
  let commas = 0;
  let at = start;
  while (at < text.length) {
    const c = text.charCodeAt(at);
    if (c === BACKSLASH) {
      at += 2;
      continue;
    }
    if (c === SPACE) fields = true;
    if (fields) {
      if (!quoted && c === EQUALS) equals += 1;
      else if (!quoted && c === COMMA) commas += 1;
      else if (c === QUOTE && equals > commas) quoted = !quoted;
    }
    if (c === NEWLINE && !quoted) return { end: at, quoted, escaping: false };
    at += 1;
  }
  return { end: text.length, quoted, escaping: at > text.length };
}

/** The body's lines as InfluxDB splits it, without their line breaks. */
export function splitLines(body: string): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start < body.length) {
    const { end } = scanLine(body, start);
    lines.push(body.slice(start, end));
    start = end + 1;
  }
  return lines;
}

/**
 * Why InfluxDB would not read `line`, joined to others by "\n", as exactly one point line, or
 * undefined when it would: a line break outside a string splits it; a string or an escape left
 * open at its end takes the next line into it; a blank line or a comment holds no point.
 */
export function notOneLine(line: string): string | undefined {
  const scan = scanLine(line, 0);
  if (scan.end < line.length) return "a line break outside a string field would split it";
  if (scan.quoted) return "a string field is left open, which would join the next line to it";
  if (scan.escaping) return "it ends in a backslash, which would join the next line to it";
  let first = 0;
  while (first < line.length && isBlank(line.charCodeAt(first))) first += 1;
  if (first === line.length) return "it is blank";
  if (line.charCodeAt(first) === HASH) return "it starts with #, which InfluxDB skips as a comment";
  return undefined;
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB || c === NUL;
}
