/**
 * INTERIM, until core/config lands on main: the ingest settings from Steward's YAML config text
 * (`Service.auditEvents`), defaults as CONTRACT §2. Replace its one caller (handler.ts) with
 * `checkConfigText(text, ...)` → `config.auditEvents` and delete this file.
 */

import { parse } from "yaml";
import type { AuditIngestSettings } from "./app.ts";

const DEFAULTS: AuditIngestSettings = {
  apiToken: "",
  maxBodyBytes: 1_048_576,
  correlationIdMaxLength: 64,
  compatibility: [{ serverRange: ">=15.0.0 <16.0.0", clientRange: ">=0.3.0 <0.4.0" }],
  cors: { allowedOrigins: [] },
  rateLimit: { enable: true, maxPerMinute: 300 },
};

function objectAt(value: unknown, key: string): Record<string, unknown> {
  const member =
    typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof member === "object" && member !== null && !Array.isArray(member)
    ? (member as Record<string, unknown>)
    : {};
}

export function settingsFromConfigText(text: string | undefined): AuditIngestSettings {
  if (text === undefined || text.trim() === "") return DEFAULTS;
  const audit = objectAt(objectAt(parse(text), "Service"), "auditEvents");
  const cors = objectAt(audit, "cors");
  const rateLimit = objectAt(audit, "rateLimit");
  const pick = <T>(value: unknown, fallback: T, isValid: (v: unknown) => boolean): T =>
    isValid(value) ? (value as T) : fallback;
  const isString = (v: unknown) => typeof v === "string";
  const isPositiveInt = (v: unknown) => Number.isInteger(v) && (v as number) > 0;
  return {
    apiToken: pick(audit.apiToken, DEFAULTS.apiToken, isString),
    maxBodyBytes: pick(audit.maxBodyBytes, DEFAULTS.maxBodyBytes, isPositiveInt),
    correlationIdMaxLength: pick(
      audit.correlationIdMaxLength,
      DEFAULTS.correlationIdMaxLength,
      isPositiveInt,
    ),
    compatibility: pick(audit.compatibility, DEFAULTS.compatibility, Array.isArray),
    cors: { allowedOrigins: pick(cors.allowedOrigins, DEFAULTS.cors.allowedOrigins, Array.isArray) },
    rateLimit: {
      enable: pick(rateLimit.enable, DEFAULTS.rateLimit.enable, (v) => typeof v === "boolean"),
      maxPerMinute: pick(rateLimit.maxPerMinute, DEFAULTS.rateLimit.maxPerMinute, isPositiveInt),
    },
  };
}
