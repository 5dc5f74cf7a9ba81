/**
 * What the ingest function serves when `auditEvents.enable` is false (spec 1: the setting switches
 * the API on): every request is answered 404 in the ingestion shape, nothing is queued.
 */

import { Hono } from "hono";
import { formatIngestionError, type IngestEnv } from "./ingestion-response.ts";

export function createDisabledApp(): Hono<IngestEnv> {
  const app = new Hono<IngestEnv>();
  app.all("*", (c) => formatIngestionError(c, { status: 404, reason: "Audit event API is disabled" }));
  return app;
}
