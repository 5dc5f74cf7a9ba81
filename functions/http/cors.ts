/**
 * CORS, the same for the ingest API and the REST API. `allowedOrigins` holds exact origins or
 * `*`. An allowed Origin is echoed with `Vary: Origin` and the rate-limit headers are exposed so
 * browser clients can honour them.
 * A request whose Origin is not allowed is refused with 403 — preflights too, and without any
 * `Access-Control-Allow-*` header. Requests without Origin (servers, scripts) pass untouched.
 * Preflights are answered here, before rate limiting and authentication.
 *
 * `createCorsPolicy` decides; the `cors` middleware applies the decision to a Hono request, and
 * the ingest handler applies the same decision to its runtime-neutral request.
 */

import type { MiddlewareHandler } from "hono";
import type { ErrorBodyFormatter, HttpProblem } from "./problem.ts";
import { respond, setResponseHeader } from "./response-headers.ts";

export interface CorsOptions {
  allowedOrigins: readonly string[];
  allowMethods?: readonly string[];
  exposeHeaders?: readonly string[];
  maxAgeSeconds?: number;
}

export const ORIGIN_NOT_ALLOWED: HttpProblem = { status: 403, reason: "Origin not allowed" };

export const DEFAULT_EXPOSE_HEADERS = [
  "Retry-After",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
] as const;

/** The request headers CORS reads. */
export interface CorsRequest {
  method: string;
  origin: string | undefined;
  /** `Access-Control-Request-Method`: present on a preflight. */
  requestMethod: string | undefined;
  /** `Access-Control-Request-Headers`. */
  requestHeaders: string | undefined;
}

export type CorsDecision =
  /** No Origin: not a browser's cross-origin request; nothing to add. */
  | { kind: "no-origin" }
  /** 403 "Origin not allowed". */
  | { kind: "refused" }
  /** Answer 204 with these headers; nothing else runs. */
  | { kind: "preflight"; headers: ReadonlyArray<readonly [string, string]> }
  /** Go on, and send these headers with whatever answers. */
  | { kind: "allowed"; headers: ReadonlyArray<readonly [string, string]> };

export function createCorsPolicy(options: CorsOptions): (request: CorsRequest) => CorsDecision {
  const anyOrigin = options.allowedOrigins.includes("*");
  const origins = new Set(options.allowedOrigins);
  const allowMethods = (options.allowMethods ?? ["GET", "POST", "OPTIONS"]).join(", ");
  const exposeHeaders = (options.exposeHeaders ?? DEFAULT_EXPOSE_HEADERS).join(", ");
  const maxAge = String(options.maxAgeSeconds ?? 600);
  const noOrigin: CorsDecision = { kind: "no-origin" };
  const refused: CorsDecision = { kind: "refused" };

  return function corsDecision({ method, origin, requestMethod, requestHeaders }) {
    if (origin === undefined) return noOrigin;
    if (!anyOrigin && !origins.has(origin)) return refused;
    if (method === "OPTIONS" && requestMethod !== undefined) {
      const headers: Array<readonly [string, string]> = [
        ["Access-Control-Allow-Origin", origin],
        ["Access-Control-Allow-Methods", allowMethods],
        ["Access-Control-Max-Age", maxAge],
        ["Vary", "Origin, Access-Control-Request-Headers"],
      ];
      if (requestHeaders !== undefined && requestHeaders.trim() !== "") {
        headers.push(["Access-Control-Allow-Headers", requestHeaders]);
      }
      return { kind: "preflight", headers };
    }
    return {
      kind: "allowed",
      headers: [
        ["Access-Control-Allow-Origin", origin],
        ["Vary", "Origin"],
        ["Access-Control-Expose-Headers", exposeHeaders],
      ],
    };
  };
}

export function cors(options: CorsOptions & { formatError: ErrorBodyFormatter }): MiddlewareHandler {
  const decide = createCorsPolicy(options);
  return async function cors(c, next) {
    const decision = decide({
      method: c.req.method,
      origin: c.req.header("origin"),
      requestMethod: c.req.header("access-control-request-method"),
      requestHeaders: c.req.header("access-control-request-headers"),
    });
    if (decision.kind === "refused") {
      return options.formatError(c, ORIGIN_NOT_ALLOWED);
    }
    if (decision.kind !== "no-origin") {
      for (const [name, value] of decision.headers) setResponseHeader(c, name, value);
    }
    if (decision.kind === "preflight") return respond(c, null, 204);
    await next();
  };
}
