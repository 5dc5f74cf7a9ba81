/**
 * The ingest use case: one parsed request body in, one typed outcome out; the edge maps the outcome
 * to a response. Checks run in this order: envelope schema (400), then content in three groups
 * (envelope constraints → client version → per-type payload; the first failing group is reported as
 * 422), then the queue (429 rate-limited, 503 full or unavailable, 413 an event larger than the
 * queue can ever hold).
 */

import { createLogThrottle } from "../logging/index.ts";
import type { EventQueue, Logger } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import type { AcceptedEvent } from "./accepted-event.ts";
import { type CompatibilityRule, createCompatibilityCheck } from "./client-version.ts";
import { type ConstraintViolation, checkEnvelopeConstraints } from "./envelope-constraints.ts";
import { envelopeJsonOf } from "./envelope-json.ts";
import { parseEnvelope, type SchemaViolation } from "./envelope-schema.ts";
import type { MissingVersionLog } from "./missing-version-log.ts";
import { checkPayload } from "./payload-schemas.ts";
import { EventQueueUnavailableError } from "./queue-errors.ts";

export interface IngestEventOptions {
  correlationIdMaxLength: number;
  compatibility: readonly CompatibilityRule[];
  serverVersion: string;
}

export interface IngestEventDeps {
  queue: EventQueue;
  logger: Logger;
  missingVersionLog: MissingVersionLog;
}

/** One event as submitted to the ingest use case: its parsed body and what the edge knows of the request. */
export interface EventSubmission {
  /** The request body after JSON parsing. */
  body: unknown;
  /** The body's text, when the edge has it: queues that store JSON reuse it (envelope-json.ts). */
  bodyText?: string | undefined;
  /** The normalised version header, if any (see normaliseVersionHeader). */
  clientVersion: string | undefined;
  clientIp: string;
  /** ISO 8601 time the request arrived. */
  receivedAt: string;
}

export type IngestOutcome =
  | { kind: "accepted" }
  | { kind: "invalid-schema"; violations: SchemaViolation[] }
  | { kind: "constraint-violation"; violations: ConstraintViolation[] }
  | { kind: "incompatible-version"; serverVersion: string; auditClientVersion: string }
  | { kind: "queue-rate-limited" }
  | { kind: "queue-full" }
  | { kind: "event-too-large" }
  | { kind: "queue-unavailable"; error: unknown }
  | { kind: "enqueue-failed"; error: unknown };

export type IngestEvent = (request: EventSubmission) => Promise<IngestOutcome>;

export function createIngestEvent(options: IngestEventOptions, deps: IngestEventDeps): IngestEvent {
  const { queue, logger, missingVersionLog } = deps;
  const constraintOptions = { correlationIdMaxLength: options.correlationIdMaxLength };
  const isCompatible = createCompatibilityCheck(options.serverVersion, options.compatibility);
  const unavailableLog = createLogThrottle();
  // A full or rate-limited queue refuses every event alike while it lasts: the first drop is
  // logged with its event, then at most one WARN a minute per reason with the count since the
  // last (`dropped`), instead of one line per event (Butler SOS's), which under load floods
  // the log. Each drop is also counted in the queue's metrics and at DEBUG.
  const dropLog = createLogThrottle();
  function logDrop(message: string, reason: string, receivedAt: string, fields: Record<string, unknown>) {
    const dropped = dropLog.admit(reason, Date.parse(receivedAt));
    if (dropped !== undefined) logger.warn(message, { ...fields, dropped });
    else if (logger.isLevelEnabled("debug")) logger.debug(message, fields);
  }

  return async function ingestEvent(request) {
    const parsed = parseEnvelope(request.body);
    if (!parsed.ok) {
      logger.warn("Audit event rejected: schema validation failed", {
        ip: request.clientIp,
        errors: parsed.violations.map((v) => `${v.instancePath} ${v.message}`).join("; "),
      });
      return { kind: "invalid-schema", violations: parsed.violations };
    }
    const envelope = parsed.envelope;
    const fields = { type: envelope.type, eventId: envelope.eventId, ip: request.clientIp };

    const constraintViolations = checkEnvelopeConstraints(envelope, constraintOptions);
    if (constraintViolations.length > 0) {
      logger.warn("Audit event rejected: constraint violations", {
        ...fields,
        errors: constraintViolations.map((v) => v.message).join("; "),
      });
      return { kind: "constraint-violation", violations: constraintViolations };
    }

    // The header wins over the envelope's own claim, as in Butler SOS.
    const clientVersion = request.clientVersion ?? envelope.source?.version;
    if (clientVersion === undefined) {
      missingVersionLog.record({ ...fields, serverVersion: options.serverVersion });
    } else if (!isCompatible(clientVersion)) {
      logger.warn("Audit event rejected: incompatible client version", {
        ...fields,
        serverVersion: options.serverVersion,
        auditClientVersion: clientVersion,
      });
      return {
        kind: "incompatible-version",
        serverVersion: options.serverVersion,
        auditClientVersion: clientVersion,
      };
    }

    const payloadViolations = checkPayload(envelope.type, envelope.payload);
    if (payloadViolations.length > 0) {
      logger.warn("Audit event rejected: payload validation failed", {
        ...fields,
        errors: payloadViolations.map((v) => v.message).join("; "),
      });
      return { kind: "constraint-violation", violations: payloadViolations };
    }

    const event: AcceptedEvent = { envelope, receivedAt: request.receivedAt, clientIp: request.clientIp };
    let result: Awaited<ReturnType<EventQueue["enqueue"]>>;
    try {
      result = await queue.enqueue(event, envelopeJsonOf(request.body, request.bodyText, envelope));
    } catch (error) {
      if (error instanceof EventQueueUnavailableError) {
        // A queue that cannot take events (a full or read-only disk, an unreachable SQS) fails
        // every request alike: one ERROR with the cause, then at most one a minute with the count.
        const refused = unavailableLog.admit("queue-unavailable", Date.parse(request.receivedAt));
        if (refused !== undefined) {
          logger.error("Audit events not accepted (503): the event queue is unavailable", {
            ...fields,
            refused,
            error: describeError(error),
          });
        }
        return { kind: "queue-unavailable", error };
      }
      logger.error("Audit event not accepted: enqueue failed", { ...fields, error: String(error) });
      return { kind: "enqueue-failed", error };
    }
    switch (result) {
      case "queued":
        if (logger.isLevelEnabled("debug")) logger.debug("Audit event queued", fields);
        return { kind: "accepted" };
      case "rate-limited":
        logDrop("Dropped audit event due to queue rate limit", result, request.receivedAt, fields);
        return { kind: "queue-rate-limited" };
      case "full":
        logDrop("Dropped audit event due to full queue", result, request.receivedAt, fields);
        return { kind: "queue-full" };
      case "too-large":
        // Logged by the queue (at most once a minute, with its limit): only it knows the sizes.
        if (logger.isLevelEnabled("debug"))
          logger.debug("Audit event larger than the queue can hold", fields);
        return { kind: "event-too-large" };
    }
  };
}
