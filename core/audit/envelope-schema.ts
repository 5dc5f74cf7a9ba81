/**
 * The audit event envelope, structural layer: a violation here is a 400 "Schema validation failed"
 * listing every issue with a JSON pointer. No type coercion (`"1"` is not a schemaVersion). Members
 * the envelope does not define are dropped from the output; `source` keeps only kind, name and
 * version. Content rules (UUIDs, lengths, type allow-list) are the 422 layer in
 * envelope-constraints.ts.
 */

import * as v from "valibot";
import { issuePointer } from "../shared/json-pointer.ts";
import type { AuditEnvelope } from "./accepted-event.ts";
import { looseObjectOf, objectOf } from "./json-object.ts";
import { isRfc3339DateTime } from "./rfc3339.ts";

export const SOURCE_KINDS = ["qlik-sense-extension"] as const;
export const SOURCE_NAMES = ["audit-qs"] as const;

const sourceSchema = objectOf({
  kind: v.exactOptional(v.picklist(SOURCE_KINDS, `must be one of: ${SOURCE_KINDS.join(", ")}`)),
  name: v.exactOptional(v.picklist(SOURCE_NAMES, `must be one of: ${SOURCE_NAMES.join(", ")}`)),
  version: v.exactOptional(v.pipe(v.string("must be a string"), v.minLength(1, "must not be empty"))),
});

export const envelopeSchema = objectOf({
  schemaVersion: v.pipe(
    v.number("must be a number"),
    v.integer("must be an integer"),
    v.minValue(1, "must be >= 1"),
  ),
  eventId: v.pipe(v.string("must be a string"), v.minLength(1, "must not be empty")),
  timestamp: v.pipe(
    v.string("must be a string"),
    v.check(isRfc3339DateTime, "must be an RFC 3339 date-time with a time zone"),
    v.metadata({ format: "date-time" }),
  ),
  type: v.pipe(v.string("must be a string"), v.minLength(1, "must not be empty")),
  payload: looseObjectOf({}),
  correlationId: v.exactOptional(v.string("must be a string")),
  source: v.exactOptional(sourceSchema),
});

/** One item of a 400 body's `details.errors`. */
export interface SchemaViolation {
  /** RFC 6901 pointer into the request body, e.g. `/source/kind`; `""` for the body itself. */
  instancePath: string;
  message: string;
}

export type EnvelopeParseResult =
  | { ok: true; envelope: AuditEnvelope }
  | { ok: false; violations: SchemaViolation[] };

const OBJECT_TYPES = new Set(["object", "loose_object", "strict_object"]);

/** Turns a valibot issue into a violation; a missing member reads "is required". */
export function toSchemaViolation(issue: v.BaseIssue<unknown>, prefix = ""): SchemaViolation {
  const missing = issue.kind === "schema" && OBJECT_TYPES.has(issue.type) && issue.received === "undefined";
  return { instancePath: issuePointer(issue, prefix), message: missing ? "is required" : issue.message };
}

/** Validates the structure of a parsed request body. */
export function parseEnvelope(body: unknown): EnvelopeParseResult {
  const result = v.safeParse(envelopeSchema, body);
  if (result.success) return { ok: true, envelope: result.output };
  return { ok: false, violations: result.issues.map((issue) => toSchemaViolation(issue)) };
}
