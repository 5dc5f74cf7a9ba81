/**
 * What the ingest function serves when it takes no event: every request answered with one
 * problem in the ingestion shape, nothing queued. 404 when `auditEvents.enable` is false (the
 * setting switches the API on); 503 when the API has no token (functions/cloud-token.ts).
 */

import type { Hono } from "hono";
import { createClosedApp } from "../http/closed-app.ts";
import type { HttpProblem } from "../http/problem.ts";
import { toWebResponse } from "./app.ts";
import { answerHeaders, errorAnswer } from "./ingestion-response.ts";

export const INGEST_DISABLED: HttpProblem = { status: 404, reason: "Audit event API is disabled" };

export function createClosedIngestApp(problem: HttpProblem): Hono {
  return createClosedApp(problem, (c, answered) =>
    toWebResponse(errorAnswer(answerHeaders(), new Date().toISOString(), answered), c.req.method),
  );
}
