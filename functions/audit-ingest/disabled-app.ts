/**
 * What the ingest function serves when `auditEvents.enable` is false (the setting switches the
 * API on): every request is answered 404 in the ingestion shape, nothing is queued.
 */

import { Hono } from "hono";
import { toWebResponse } from "./app.ts";
import { answerHeaders, errorAnswer } from "./ingestion-response.ts";

export function createDisabledApp(): Hono {
  const app = new Hono();
  app.all("*", (c) =>
    toWebResponse(
      errorAnswer(answerHeaders(), new Date().toISOString(), {
        status: 404,
        reason: "Audit event API is disabled",
      }),
      c.req.method,
    ),
  );
  return app;
}
