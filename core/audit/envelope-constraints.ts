/**
 * The envelope content rules: each violation is a 422 item; all rules run and every failure is
 * listed. Messages quote the offending value, shortened so a huge value cannot inflate the
 * response.
 */

import type { AuditEnvelope } from "./accepted-event.ts";
import { isRecognisedEventType } from "./event-types.ts";
import { isJsonObject } from "./json-object.ts";
import { isUuid } from "./uuid.ts";

/** One item of a 422 body's `details.errors`. */
export interface ConstraintViolation {
  message: string;
  /** Pointer into the request body when the violation is about one member. */
  instancePath?: string;
}

export interface EnvelopeConstraintOptions {
  correlationIdMaxLength: number;
}

const QUOTE_MAX = 80;

/** A value as it appears in a message: JSON-quoted, cut at 80 characters. */
export function quoteValue(value: unknown): string {
  const text = typeof value === "string" ? value : String(JSON.stringify(value));
  const cut = text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}…` : text;
  return JSON.stringify(cut);
}

export function checkEnvelopeConstraints(
  envelope: AuditEnvelope,
  options: EnvelopeConstraintOptions,
): ConstraintViolation[] {
  const violations: ConstraintViolation[] = [];
  if (!isUuid(envelope.eventId)) {
    violations.push({
      instancePath: "/eventId",
      message: `eventId is not a valid UUID (${quoteValue(envelope.eventId)})`,
    });
  }
  const correlationId = envelope.correlationId;
  if (correlationId !== undefined && correlationId.length > options.correlationIdMaxLength) {
    violations.push({
      instancePath: "/correlationId",
      message: `correlationId exceeds ${options.correlationIdMaxLength} characters (length=${correlationId.length})`,
    });
  }
  const context = envelope.payload.context;
  if (isJsonObject(context) && Object.hasOwn(context, "appId")) {
    const appId = context.appId;
    if (typeof appId !== "string" || !isUuid(appId)) {
      violations.push({
        instancePath: "/payload/context/appId",
        message: `payload.context.appId is not a valid UUID (${quoteValue(appId)})`,
      });
    }
  }
  if (!isRecognisedEventType(envelope.type)) {
    violations.push({
      instancePath: "/type",
      message: `type is not a recognised event type (${quoteValue(envelope.type)})`,
    });
  }
  return violations;
}
