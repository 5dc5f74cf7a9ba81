/**
 * The ingest API as one runtime-neutral function: a request described by `IngestHttpRequest`
 * in, an `IngestAnswer` out. Both front doors run it: the Hono app (app.ts; the Lambda and
 * in-process tests) and the local node:http listener (local/http/ingest-listener.ts), which
 * skips the framework on the hot path (docs/performance.md, "Ingest"). Checks run in the order
 * docs/audit-ingest-api.md gives: CORS (preflights answered, foreign origins 403) → route (404)
 * → rate limit → token → body (415/413/400) → envelope schema (400) → content (422) → queue
 * (429/503) → 202.
 * The function never throws: an unexpected error is logged and answered 500 in the ingestion
 * shape, without internals.
 */

import { normaliseVersionHeader } from "../../core/audit/client-version.ts";
import { testConnection } from "../../core/audit/connection-test.ts";
import { createIngestEvent } from "../../core/audit/ingest-event.ts";
import { createMissingVersionLog } from "../../core/audit/missing-version-log.ts";
import type { Config } from "../../core/config/index.ts";
import { createIsoTimestamps } from "../../core/iso-timestamps.ts";
import type { Clock, EventQueue, Logger, RateLimitStore } from "../../core/ports.ts";
import {
  clientKeyOf,
  createFixedWindowLimiter,
  createRateLimitRefusals,
} from "../../core/ratelimit/index.ts";
import { SERVICE_VERSION } from "../../core/version.ts";
import {
  EXPLORER_ASSET_PREFIX,
  EXPLORER_CSP,
  EXPLORER_PATH,
  type ExplorerAssets,
  explorerFile,
  explorerPage,
} from "../http/api-explorer.ts";
import { createBearerCheck, UNAUTHORIZED } from "../http/bearer-auth.ts";
import { createCorsPolicy, ORIGIN_NOT_ALLOWED } from "../http/cors.ts";
import { logUnhandledError, NOT_FOUND } from "../http/error-handler.ts";
import { type RequestBody, readJsonBody } from "../http/json-body.ts";
import { RATE_LIMITED, rateLimitHeaders } from "../http/rate-limit.ts";
import { RequestAbortedError } from "../http/request-aborted-error.ts";
import {
  answerHeaders,
  errorAnswer,
  INTERNAL_ERROR_REASON,
  type IngestAnswer,
  jsonAnswer,
  outcomeAnswer,
} from "./ingestion-response.ts";

/** The slice of `config.auditEvents` the API reads. */
export type AuditIngestSettings = Pick<
  Config["auditEvents"],
  "apiToken" | "maxBodyBytes" | "correlationIdMaxLength" | "compatibility" | "cors" | "rateLimit"
>;

export interface IngestHandlerDeps {
  settings: AuditIngestSettings;
  queue: EventQueue;
  rateLimitStore: RateLimitStore;
  logger: Logger;
  clock: Clock;
  /** Defaults to package.json's version, the one the server always reports; tests may pin another. */
  serverVersion?: string;
  /** Swagger UI's files for the API explorer at /documentation (without them: 404). */
  explorerAssets?: ExplorerAssets;
  /** Counts each request the rate limit refuses (the local scrape metric); the WARN is logged either way. */
  countRateLimited?: () => void;
}

/** A request as the ingest API reads it; each front door builds one from its runtime's request. */
export interface IngestHttpRequest extends RequestBody {
  method: string;
  /** The path, without the query string. */
  path: string;
  /** A header by its lower-case name; repeated lines joined by ", " (as Fetch does). */
  header(name: string): string | undefined;
  clientIp: string;
}

export type IngestHandler = (request: IngestHttpRequest) => Promise<IngestAnswer>;

export const AUDIT_EVENT_PATH = "/api/v1/audit-event";
export const TEST_CONNECTION_PATH = "/api/v1/test-connection";
export const OPENAPI_PATH = "/documentation/json";

type Route = "post-event" | "options-event" | "test-connection" | "openapi" | "explorer" | "explorer-file";

/** HEAD is answered as GET (the front doors drop the body). */
function routeOf(method: string, path: string): Route | undefined {
  if (path === AUDIT_EVENT_PATH) {
    if (method === "POST") return "post-event";
    return method === "OPTIONS" ? "options-event" : undefined;
  }
  if (method !== "GET" && method !== "HEAD") return undefined;
  if (path === TEST_CONNECTION_PATH) return "test-connection";
  if (path === EXPLORER_PATH) return "explorer";
  if (path.startsWith(EXPLORER_ASSET_PREFIX)) return "explorer-file";
  return path === OPENAPI_PATH ? "openapi" : undefined;
}

/** Both version headers; the first present one wins (the existing browser client sends the alias). */
function clientVersionOf(request: IngestHttpRequest): string | undefined {
  return normaliseVersionHeader(
    request.header("x-audit-client-version") ?? request.header("x-audit-qs-version"),
  );
}

export function createIngestHandler(deps: IngestHandlerDeps): IngestHandler {
  const { settings, logger, clock } = deps;
  const serverVersion = deps.serverVersion ?? SERVICE_VERSION;
  const ingestEvent = createIngestEvent(
    {
      correlationIdMaxLength: settings.correlationIdMaxLength,
      compatibility: settings.compatibility,
      serverVersion,
    },
    { queue: deps.queue, logger, missingVersionLog: createMissingVersionLog(logger, clock) },
  );
  // The document and the explorer page are built on the first request for them, not in every
  // (Lambda cold) start; their generator (valibot to OpenAPI) is imported only then, from its own
  // chunk in a split bundle.
  let docs: Promise<{ document: string; explorer: string }> | undefined;
  const documentation = () => {
    docs ??= import("./openapi.ts").then(({ buildIngestOpenApi }) => {
      const openApi = buildIngestOpenApi(serverVersion);
      const info = openApi.info as { title: string; version: string };
      return {
        document: JSON.stringify(openApi),
        explorer: explorerPage(`${info.title} ${info.version}`, OPENAPI_PATH),
      };
    });
    // A failed import is tried again by the next request (this one is answered 500).
    docs.catch(() => {
      docs = undefined;
    });
    return docs;
  };
  const isoNow = createIsoTimestamps(clock);
  const corsDecision = createCorsPolicy({ allowedOrigins: settings.cors.allowedOrigins });
  const limiter = settings.rateLimit.enable
    ? createFixedWindowLimiter(
        { maxPerWindow: settings.rateLimit.maxPerMinute },
        { store: deps.rateLimitStore, clock },
      )
    : undefined;
  const refusals = createRateLimitRefusals({
    logger,
    clock,
    maxPerMinute: settings.rateLimit.maxPerMinute,
    ...(deps.countRateLimited === undefined ? {} : { count: deps.countRateLimited }),
  });
  const isAuthorized = createBearerCheck(settings.apiToken);
  const bodyOptions = { maxBytes: settings.maxBodyBytes };

  async function answer(request: IngestHttpRequest, headers: Record<string, string>, receivedAt: string) {
    const cors = corsDecision({
      method: request.method,
      origin: request.header("origin"),
      requestMethod: request.header("access-control-request-method"),
      requestHeaders: request.header("access-control-request-headers"),
    });
    if (cors.kind === "refused") return errorAnswer(headers, receivedAt, ORIGIN_NOT_ALLOWED);
    if (cors.kind !== "no-origin") for (const [name, value] of cors.headers) headers[name] = value;
    if (cors.kind === "preflight") return { status: 204, headers, body: null };

    const route = routeOf(request.method, request.path);
    if (route === undefined) return errorAnswer(headers, receivedAt, NOT_FOUND);
    // A plain OPTIONS (no CORS preflight headers): nothing to process, nothing to count.
    if (route === "options-event") return { status: 204, headers, body: null };
    if (route === "openapi") {
      headers["content-type"] = "application/json";
      return { status: 200, headers, body: (await documentation()).document };
    }
    if (route === "explorer") {
      headers["Content-Security-Policy"] = EXPLORER_CSP;
      headers["content-type"] = "text/html; charset=UTF-8";
      return { status: 200, headers, body: (await documentation()).explorer };
    }
    if (route === "explorer-file") {
      const name = request.path.slice(EXPLORER_ASSET_PREFIX.length);
      const file =
        deps.explorerAssets === undefined ? undefined : await explorerFile(name, deps.explorerAssets);
      if (file === undefined) return errorAnswer(headers, receivedAt, NOT_FOUND);
      headers["Cache-Control"] = "public, max-age=3600";
      headers["content-type"] = file.contentType;
      return { status: 200, headers, body: file.body };
    }

    // Rate limit, then token, on both endpoints (one counter per client).
    if (limiter !== undefined) {
      const decision = await limiter.hit(clientKeyOf(request.clientIp));
      for (const [name, value] of rateLimitHeaders(decision, clock)) headers[name] = value;
      if (!decision.allowed) {
        refusals.refused(request.clientIp);
        return errorAnswer(headers, receivedAt, RATE_LIMITED);
      }
    }
    if (!isAuthorized(request.header("authorization"))) {
      logger.warn("Unauthorized request", {
        ip: request.clientIp,
        method: request.method,
        path: request.path,
      });
      return errorAnswer(headers, receivedAt, UNAUTHORIZED);
    }

    if (route === "test-connection") {
      const result = testConnection(
        clientVersionOf(request),
        isoNow(),
        { serverVersion, compatibility: settings.compatibility },
        logger,
      );
      return jsonAnswer(headers, 200, result);
    }

    const body = await readJsonBody(request, bodyOptions);
    if (!body.ok) return errorAnswer(headers, receivedAt, body.problem);
    const outcome = await ingestEvent({
      body: body.value,
      bodyText: body.text,
      clientVersion: clientVersionOf(request),
      clientIp: request.clientIp,
      receivedAt,
    });
    return outcomeAnswer(headers, receivedAt, outcome);
  }

  return async function handleIngest(request) {
    const receivedAt = isoNow();
    const headers = answerHeaders();
    try {
      return await answer(request, headers, receivedAt);
    } catch (error) {
      if (error instanceof RequestAbortedError) {
        // No one is left to read an answer; the event was not taken.
        logger.debug("client closed the connection before its request body arrived", {
          ip: request.clientIp,
          path: request.path,
        });
        return errorAnswer(answerHeaders(), receivedAt, { status: 400, reason: "Request body incomplete" });
      }
      logUnhandledError(logger, request.method, request.path, error);
      return errorAnswer(answerHeaders(), receivedAt, { status: 500, reason: INTERNAL_ERROR_REASON });
    }
  };
}
