/**
 * The ingestion response shape `{status, receivedAt, outcome, reason?, details?}` (spec 1,
 * CONTRACT §3), used for every answer of the ingest API, and the mapping from the ingest use
 * case's outcome to a response.
 */

import type { Context } from "hono";
import type { IngestOutcome } from "../../core/audit/ingest-event.ts";
import type { ErrorBodyFormatter, HttpProblem } from "../http/problem.ts";
import { respondJson, setResponseHeader } from "../http/response-headers.ts";

export interface IngestionResponseBody {
  status: "accepted" | "error";
  receivedAt: string;
  outcome: "processed" | "dropped" | "error";
  reason?: string;
  details?: Record<string, unknown>;
}

export interface IngestEnv {
  Variables: { receivedAt: string; jsonBody: unknown };
}

export const INTERNAL_ERROR_REASON = "Internal error while processing event";

function receivedAtOf(c: Context): string {
  const value: unknown = c.get("receivedAt");
  return typeof value === "string" ? value : new Date().toISOString();
}

/** Formats a refusal: outcome "error" for 5xx other than 503, "dropped" otherwise. */
export const formatIngestionError: ErrorBodyFormatter = (c: Context, problem: HttpProblem) => {
  const body: IngestionResponseBody = {
    status: "error",
    receivedAt: receivedAtOf(c),
    outcome: problem.status >= 500 && problem.status !== 503 ? "error" : "dropped",
    reason: problem.reason,
  };
  if (problem.details !== undefined) body.details = problem.details;
  return respondJson(c, body, problem.status);
};

/** The HTTP answer to an ingest outcome. */
export function respondToOutcome(c: Context, outcome: IngestOutcome): Response {
  switch (outcome.kind) {
    case "accepted":
      return respondJson(
        c,
        {
          status: "accepted",
          receivedAt: receivedAtOf(c),
          outcome: "processed",
        } satisfies IngestionResponseBody,
        202,
      );
    case "invalid-schema":
      return formatIngestionError(c, {
        status: 400,
        reason: "Schema validation failed",
        details: { errors: outcome.violations },
      });
    case "constraint-violation":
      return formatIngestionError(c, {
        status: 422,
        reason: "One or more constraint violations",
        details: { errors: outcome.violations },
      });
    case "incompatible-version":
      return formatIngestionError(c, {
        status: 422,
        reason: "Incompatible audit client version",
        details: {
          serverVersion: outcome.serverVersion,
          auditClientVersion: outcome.auditClientVersion,
          compatible: false,
        },
      });
    case "queue-rate-limited":
      setResponseHeader(c, "Retry-After", "60");
      return formatIngestionError(c, {
        status: 429,
        reason: "Rate limit exceeded",
        details: { retryAfter: 60 },
      });
    case "queue-full":
    case "queue-unavailable": {
      const reason =
        outcome.kind === "queue-full" ? "Event queue is full" : "Event queue temporarily unavailable";
      setResponseHeader(c, "Retry-After", "30");
      return formatIngestionError(c, { status: 503, reason });
    }
    case "enqueue-failed":
      return formatIngestionError(c, { status: 500, reason: INTERNAL_ERROR_REASON });
  }
}
