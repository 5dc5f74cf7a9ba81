import type { LogFields, LogLevel } from "../ports.ts";

/** One log line: `<ISO time> <level>: [scope] message key=value ...` (fields JSON-quoted when needed). */
export function formatLogLine(
  time: Date,
  level: LogLevel,
  scope: string | undefined,
  message: string,
  fields: LogFields | undefined,
): string {
  const prefix = scope === undefined ? "" : `[${scope}] `;
  return `${time.toISOString()} ${level}: ${prefix}${message}${formatFields(fields)}`;
}

function formatFields(fields: LogFields | undefined): string {
  if (fields === undefined) return "";
  let out = "";
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    out += ` ${key}=${formatValue(value)}`;
  }
  return out;
}

const BARE_VALUE = /^[\w.:/@+-]+$/;

function formatValue(value: unknown): string {
  if (typeof value === "string") return BARE_VALUE.test(value) ? value : JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  if (value === null) return "null";
  if (value instanceof Error) return JSON.stringify(value.message);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return JSON.stringify(String(value));
  }
}
