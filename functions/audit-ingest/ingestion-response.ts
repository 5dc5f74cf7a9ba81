/**
 * The ingestion response shape `{status, receivedAt, outcome, reason?, details?}`, used for every
 * answer of the ingest API, and the mapping from the ingest use case's outcome to an answer.
 * Answers are runtime-neutral records (`IngestAnswer`); each front door writes them its own way
 * (app.ts, local/http/ingest-listener.ts).
 */

import type { IngestOutcome } from "../../core/audit/index.ts";
import type { HttpProblem } from "../http/problem.ts";
import { securityHeaderRecord } from "../http/security-headers.ts";

export interface IngestionResponseBody {
  status: "accepted" | "error";
  receivedAt: string;
  outcome: "processed" | "dropped" | "error";
  reason?: string;
  details?: Record<string, unknown>;
}

/** An answer of the ingest API, before any runtime writes it. */
export interface IngestAnswer {
  status: number;
  /** Every header but Content-Length; the security headers come first. */
  headers: Record<string, string>;
  body: string | null;
}

export const INTERNAL_ERROR_REASON = "Internal error while processing event";

/**
 * The 413 for an event whose body was within `maxBodyBytes` but that the queue can never hold
 * (locally the durable log's whole budget, in the cloud the SQS message size): no Retry-After,
 * since the same event would be refused again.
 */
export const EVENT_TOO_LARGE_REASON =
  "Event larger than the event queue can ever hold: raise auditEvents.queue.maxDiskBytes (local queue) or lower auditEvents.maxBodyBytes below the queue's limit";

/** The headers every answer starts with: the security headers, errors included. */
export const answerHeaders = securityHeaderRecord;

export function jsonAnswer(headers: Record<string, string>, status: number, value: unknown): IngestAnswer {
  headers["content-type"] = "application/json";
  return { status, headers, body: JSON.stringify(value) };
}

/** A refusal: outcome "error" for 5xx other than 503, "dropped" otherwise. */
export function errorAnswer(
  headers: Record<string, string>,
  receivedAt: string,
  problem: HttpProblem,
): IngestAnswer {
  const body: IngestionResponseBody = {
    status: "error",
    receivedAt,
    outcome: problem.status >= 500 && problem.status !== 503 ? "error" : "dropped",
    reason: problem.reason,
  };
  if (problem.details !== undefined) body.details = problem.details;
  return jsonAnswer(headers, problem.status, body);
}

/** The answer to an ingest outcome. */
export function outcomeAnswer(
  headers: Record<string, string>,
  receivedAt: string,
  outcome: IngestOutcome,
): IngestAnswer {
  switch (outcome.kind) {
    case "accepted":
      return jsonAnswer(headers, 202, {
        status: "accepted",
        receivedAt,
        outcome: "processed",
      } satisfies IngestionResponseBody);
    case "invalid-schema":
      return errorAnswer(headers, receivedAt, {
        status: 400,
        reason: "Schema validation failed",
        details: { errors: outcome.violations },
      });
    case "constraint-violation":
      return errorAnswer(headers, receivedAt, {
        status: 422,
        reason: "One or more constraint violations",
        details: { errors: outcome.violations },
      });
    case "incompatible-version":
      return errorAnswer(headers, receivedAt, {
        status: 422,
        reason: "Incompatible audit client version",
        details: {
          serverVersion: outcome.serverVersion,
          auditClientVersion: outcome.auditClientVersion,
          compatible: false,
        },
      });
    case "queue-rate-limited":
      headers["Retry-After"] = "60";
      return errorAnswer(headers, receivedAt, {
        status: 429,
        reason: "Rate limit exceeded",
        details: { retryAfter: 60 },
      });
    case "queue-full":
    case "queue-unavailable": {
      const reason =
        outcome.kind === "queue-full" ? "Event queue is full" : "Event queue temporarily unavailable";
      headers["Retry-After"] = "30";
      return errorAnswer(headers, receivedAt, { status: 503, reason });
    }
    case "event-too-large":
      return errorAnswer(headers, receivedAt, { status: 413, reason: EVENT_TOO_LARGE_REASON });
    case "enqueue-failed":
      return errorAnswer(headers, receivedAt, { status: 500, reason: INTERNAL_ERROR_REASON });
  }
}
