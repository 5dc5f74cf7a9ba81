/**
 * The audit event ingest API (spec 1, CONTRACT §3) as a Hono app built from its dependencies;
 * the same app runs under @hono/node-server locally and behind API Gateway in Lambda. Checks run
 * in the contract's order: CORS (preflights answered, foreign origins 403) → rate limit → token →
 * body (415/413/400) → envelope schema (400) → content (422) → queue (429/503) → 202.
 */

import { Hono, type MiddlewareHandler } from "hono";
import { normaliseVersionHeader } from "../../core/audit/client-version.ts";
import { testConnection } from "../../core/audit/connection-test.ts";
import { createIngestEvent } from "../../core/audit/ingest-event.ts";
import { createMissingVersionLog } from "../../core/audit/missing-version-log.ts";
import type { Config } from "../../core/config/pure.ts";
import { createIsoTimestamps } from "../../core/iso-timestamps.ts";
import type { Clock, EventQueue, Logger, RateLimitStore } from "../../core/ports.ts";
import { createFixedWindowLimiter } from "../../core/ratelimit/fixed-window-limiter.ts";
import { SERVICE_VERSION } from "../../core/version.ts";
import { bearerAuth } from "../http/bearer-auth.ts";
import { cors } from "../http/cors.ts";
import { errorHandler, notFoundHandler } from "../http/error-handler.ts";
import { jsonBody } from "../http/json-body.ts";
import type { ClientIpResolver } from "../http/problem.ts";
import { rateLimit } from "../http/rate-limit.ts";
import { respond, respondJson } from "../http/response-headers.ts";
import { securityHeaders } from "../http/security-headers.ts";
import {
  formatIngestionError,
  INTERNAL_ERROR_REASON,
  type IngestEnv,
  respondToOutcome,
} from "./ingestion-response.ts";
import { buildIngestOpenApi } from "./openapi.ts";

/** The slice of `config.auditEvents` the app reads. */
export type AuditIngestSettings = Pick<
  Config["auditEvents"],
  "apiToken" | "maxBodyBytes" | "correlationIdMaxLength" | "compatibility" | "cors" | "rateLimit"
>;

export interface AuditIngestAppDeps {
  settings: AuditIngestSettings;
  queue: EventQueue;
  rateLimitStore: RateLimitStore;
  clientIp: ClientIpResolver;
  logger: Logger;
  clock: Clock;
  /** Defaults to package.json's version (CONTRACT §0); tests may pin another. */
  serverVersion?: string;
}

export const AUDIT_EVENT_PATH = "/api/v1/audit-event";
export const TEST_CONNECTION_PATH = "/api/v1/test-connection";
export const OPENAPI_PATH = "/documentation/json";

/** Both version headers; the first present one wins (the existing browser client sends the alias). */
function clientVersionOf(header: (name: string) => string | undefined): string | undefined {
  return normaliseVersionHeader(header("x-audit-client-version") ?? header("x-audit-qs-version"));
}

export function createApp(deps: AuditIngestAppDeps): Hono<IngestEnv> {
  const { settings, logger, clock, clientIp } = deps;
  const serverVersion = deps.serverVersion ?? SERVICE_VERSION;
  const formatError = formatIngestionError;
  const ingestEvent = createIngestEvent(
    {
      correlationIdMaxLength: settings.correlationIdMaxLength,
      compatibility: settings.compatibility,
      serverVersion,
    },
    { queue: deps.queue, logger, missingVersionLog: createMissingVersionLog(logger, clock) },
  );
  const openApiDocument = JSON.stringify(buildIngestOpenApi(serverVersion));
  const isoNow = createIsoTimestamps(clock);

  const app = new Hono<IngestEnv>();
  app.onError(errorHandler({ logger, formatError, reason: INTERNAL_ERROR_REASON }));
  app.notFound(notFoundHandler(formatError));

  app.use("*", async function receivedAt(c, next) {
    c.set("receivedAt", isoNow());
    await next();
  });
  app.use("*", securityHeaders());
  app.use("*", cors({ allowedOrigins: settings.cors.allowedOrigins, formatError }));

  const guards: MiddlewareHandler[] = [];
  if (settings.rateLimit.enable) {
    const limiter = createFixedWindowLimiter(
      { maxPerWindow: settings.rateLimit.maxPerMinute },
      { store: deps.rateLimitStore, clock },
    );
    guards.push(rateLimit({ limiter, clientIp, clock, formatError }));
  }
  if (settings.apiToken !== "") {
    guards.push(bearerAuth({ token: settings.apiToken, formatError, logger, clientIp }));
  }
  // Rate limit, then token, on both endpoints (one counter per client), registered per route so
  // CORS preflights are never counted or authenticated.
  for (const guard of guards) {
    app.post(AUDIT_EVENT_PATH, guard);
    app.get(TEST_CONNECTION_PATH, guard);
  }

  app.post(
    AUDIT_EVENT_PATH,
    jsonBody({ maxBytes: settings.maxBodyBytes, formatError }),
    async function postAuditEvent(c) {
      const outcome = await ingestEvent({
        body: c.get("jsonBody"),
        clientVersion: clientVersionOf((name) => c.req.header(name)),
        clientIp: clientIp(c),
        receivedAt: c.get("receivedAt"),
      });
      return respondToOutcome(c, outcome);
    },
  );

  // A plain OPTIONS (no CORS preflight headers): nothing to process, nothing to count.
  app.options(AUDIT_EVENT_PATH, (c) => respond(c, null, 204));

  app.get(TEST_CONNECTION_PATH, function getTestConnection(c) {
    const clientVersion = clientVersionOf((name) => c.req.header(name));
    const now = isoNow();
    const result = testConnection(
      clientVersion,
      now,
      { serverVersion, compatibility: settings.compatibility },
      logger,
    );
    return respondJson(c, result, 200);
  });

  app.get(OPENAPI_PATH, (c) => respond(c, openApiDocument, 200, "application/json"));

  return app;
}
