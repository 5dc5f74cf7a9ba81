/**
 * The one parser of UDP datagrams: `splitFields` cuts the text at `;` (fewer fields than the layout
 * → malformed; surplus `;` belong to the message field, so a `;` in a message never shifts the
 * fields after it), and `applyLayout` turns the pieces into a typed record by the layout's table
 * (sanitising, UUID/timestamp/number validation; a missing value is `''`, never "undefined").
 */
import type { FieldSpec, Layout, LayoutRecord } from "./field-layouts.ts";
import { sanitiseField } from "./sanitise-field.ts";
import { isIsoTimestamp, isLocalTimestamp } from "./udp-timestamps.ts";

/**
 * The datagram's fields (marker included) in wire order, exactly as many as the layout has;
 * undefined when the datagram does not fit it (too few fields, or surplus without a message field).
 */
export function splitFields(text: string, layout: Layout): string[] | undefined {
  const parts = text.split(";");
  const expected = layout.fields.length + 1;
  const surplus = parts.length - expected;
  if (surplus === 0) return parts;
  if (surplus < 0 || layout.messageIndex === undefined) return undefined;
  const message = layout.messageIndex + 1;
  const joined = parts.slice(message, message + surplus + 1).join(";");
  parts.splice(message, surplus + 1, joined);
  return parts;
}

/** The record of `parts` (from `splitFields`) by `layout`: `source` first, then every field. */
export function applyLayout<L extends Layout>(layout: L, parts: readonly string[]): LayoutRecord<L> {
  const record: Record<string, unknown> = { source: layout.source };
  const fields = layout.fields;
  for (let i = 0; i < fields.length; i++) {
    const spec = fields[i] as FieldSpec;
    record[spec.name] = fieldValue(spec, sanitiseField(parts[i + 1] ?? "", spec.max));
  }
  return record as LayoutRecord<L>;
}

function fieldValue(spec: FieldSpec, value: string): string | number | undefined {
  switch (spec.kind) {
    case "text":
      return value;
    case "uuid":
      return isUuidText(value) ? value.toLowerCase() : "";
    case "isoTime":
      return isIsoTimestamp(value) ? value : "";
    case "localTime":
      return isLocalTimestamp(value) ? value : "";
    case "int": {
      const n = parseInteger(value);
      return n !== undefined && n >= (spec.min ?? Number.MIN_SAFE_INTEGER) ? n : (spec.fallback ?? -1);
    }
    case "float":
      return parseDecimal(value);
  }
}

const HEX = new Uint8Array(128);
for (const c of "0123456789abcdefABCDEF") HEX[c.charCodeAt(0)] = 1;

/** 8-4-4-4-12 hexadecimal digits, any case, any version (the nil UUID passes). */
export function isUuidText(value: string): boolean {
  if (value.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const code = value.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (code !== 45) return false;
    } else if (code > 127 || HEX[code] !== 1) {
      return false;
    }
  }
  return true;
}

/** A decimal integer (optional `-`, surrounding spaces allowed) that is a safe integer. */
export function parseInteger(value: string): number | undefined {
  const text = value.trim();
  const start = text.startsWith("-") ? 1 : 0;
  if (text.length === start || text.length - start > 16) return undefined;
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return undefined;
  }
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

const DECIMAL = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** A finite decimal number (`12.5`, `-0.1`, `1e3`), or undefined: never NaN or an infinity. */
export function parseDecimal(value: string): number | undefined {
  const text = value.trim();
  if (!DECIMAL.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}
