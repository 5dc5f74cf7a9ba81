/**
 * QVD symbol tables: each field stores its distinct values once, each as a type byte followed by
 * the value — 1 int32 LE, 2 float64 LE, 4 NUL-terminated UTF-8 string, 5 int32 + string (dual),
 * 6 float64 + string (dual). Rows then refer to symbols by index (see qvd-encoder.ts). A text
 * holding NUL cannot be stored (QvdEncodeError).
 */

import { QvdEncodeError } from "./qvd-encode-error.ts";

/** A cell: text, number, or null (Qlik NULL). */
export type QvdValue = string | number | null;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const encoder = new TextEncoder();

export interface SymbolTable {
  /** Stored symbol index for each row, null for NULL. */
  indexes: (number | null)[];
  symbolCount: number;
  bytes: Uint8Array;
  hasNull: boolean;
  /** Qlik's field tags: `$numeric`, `$integer`, `$text`, `$ascii`. */
  tags: string[];
}

export function buildSymbolTable(values: readonly QvdValue[]): SymbolTable {
  const symbolIndex = new Map<string, number>();
  const chunks: Uint8Array[] = [];
  const indexes: (number | null)[] = [];
  let hasNull = false;
  let allIntegers = true;
  let allNumbers = true;
  let allAscii = true;
  let length = 0;
  for (const value of values) {
    if (value === null) {
      hasNull = true;
      indexes.push(null);
      continue;
    }
    // Key by type so that the number 1 and the text "1" stay distinct symbols.
    const key = typeof value === "number" ? `n${value}` : `s${value}`;
    let index = symbolIndex.get(key);
    if (index === undefined) {
      index = symbolIndex.size;
      symbolIndex.set(key, index);
      const chunk = encodeSymbol(value);
      chunks.push(chunk);
      length += chunk.length;
      if (typeof value === "number") {
        allIntegers &&= Number.isInteger(value);
      } else {
        allNumbers = false;
        allAscii &&= /^[\x20-\x7e]*$/.test(value);
      }
    }
    indexes.push(index);
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  const symbolCount = symbolIndex.size;
  const tags =
    symbolCount === 0
      ? []
      : allNumbers
        ? ["$numeric", ...(allIntegers ? ["$integer"] : [])]
        : [...(allAscii ? ["$ascii"] : []), "$text"];
  return { indexes, symbolCount, bytes, hasNull, tags };
}

function encodeSymbol(value: string | number): Uint8Array {
  if (typeof value === "string") {
    // A NUL would end the text early and make the rest of it read as the next symbols: the file
    // would be corrupt from there on. No QVD can hold such a text; the row is refused instead.
    if (value.includes("\0")) throw new QvdEncodeError("a QVD text cannot hold the character NUL (U+0000)");
    const text = encoder.encode(value);
    const out = new Uint8Array(text.length + 2);
    out[0] = 4;
    out.set(text, 1);
    return out;
  }
  if (!Number.isFinite(value)) {
    // NaN and infinities have no place in a table file; store their text.
    return encodeSymbol(String(value));
  }
  if (Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX) {
    const out = new Uint8Array(5);
    out[0] = 1;
    new DataView(out.buffer).setInt32(1, value, true);
    return out;
  }
  // Larger integers (epoch ms, dataStateIds) and fractions: a dual double whose text is the exact
  // decimal form, so Qlik shows 1772988386181 rather than 1.772988386181e+12.
  const text = encoder.encode(String(value));
  const out = new Uint8Array(9 + text.length + 1);
  out[0] = 6;
  new DataView(out.buffer).setFloat64(1, value, true);
  out.set(text, 9);
  return out;
}
