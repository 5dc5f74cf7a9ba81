/**
 * CORS (CONTRACT §3). `allowedOrigins` holds exact origins or `*`. An allowed Origin is echoed
 * with `Vary: Origin` and the rate-limit headers are exposed so browser clients can honour them.
 * A request whose Origin is not allowed is refused with 403 — preflights too, and without any
 * `Access-Control-Allow-*` header. Requests without Origin (servers, scripts) pass untouched.
 * Preflights are answered here, before rate limiting and authentication.
 */

import type { MiddlewareHandler } from "hono";
import type { ErrorBodyFormatter } from "./problem.ts";
import { respond, setResponseHeader } from "./response-headers.ts";

export interface CorsOptions {
  allowedOrigins: readonly string[];
  formatError: ErrorBodyFormatter;
  allowMethods?: readonly string[];
  exposeHeaders?: readonly string[];
  maxAgeSeconds?: number;
}

export const DEFAULT_EXPOSE_HEADERS = [
  "Retry-After",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
] as const;

export function cors(options: CorsOptions): MiddlewareHandler {
  const anyOrigin = options.allowedOrigins.includes("*");
  const origins = new Set(options.allowedOrigins);
  const allowMethods = (options.allowMethods ?? ["GET", "POST", "OPTIONS"]).join(", ");
  const exposeHeaders = (options.exposeHeaders ?? DEFAULT_EXPOSE_HEADERS).join(", ");
  const maxAge = String(options.maxAgeSeconds ?? 600);

  return async function cors(c, next) {
    const origin = c.req.header("origin");
    if (origin === undefined) {
      await next();
      return;
    }
    if (!anyOrigin && !origins.has(origin)) {
      return options.formatError(c, { status: 403, reason: "Origin not allowed" });
    }
    const requestMethod = c.req.header("access-control-request-method");
    setResponseHeader(c, "Access-Control-Allow-Origin", origin);
    if (c.req.method === "OPTIONS" && requestMethod !== undefined) {
      setResponseHeader(c, "Access-Control-Allow-Methods", allowMethods);
      setResponseHeader(c, "Access-Control-Max-Age", maxAge);
      setResponseHeader(c, "Vary", "Origin, Access-Control-Request-Headers");
      const requestHeaders = c.req.header("access-control-request-headers");
      if (requestHeaders !== undefined && requestHeaders.trim() !== "") {
        setResponseHeader(c, "Access-Control-Allow-Headers", requestHeaders);
      }
      return respond(c, null, 204);
    }
    setResponseHeader(c, "Vary", "Origin");
    setResponseHeader(c, "Access-Control-Expose-Headers", exposeHeaders);
    await next();
  };
}
