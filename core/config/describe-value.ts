/**
 * A configuration value as a problem message shows it: strings quoted and cut at 40 characters
 * (a long value would hide the message), lists and mappings named rather than printed. Callers
 * never pass a secret's value (see parse.ts).
 */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string")
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  return String(value);
}
