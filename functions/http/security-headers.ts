/** Security headers on every response (CONTRACT §3), whatever produced it. */

import type { MiddlewareHandler } from "hono";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "no-store",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "default-src 'none'",
  "Referrer-Policy": "no-referrer",
};

export function securityHeaders(extra: Readonly<Record<string, string>> = {}): MiddlewareHandler {
  const headers = Object.entries({ ...SECURITY_HEADERS, ...extra });
  return async function securityHeaders(c, next) {
    await next();
    for (const [name, value] of headers) c.res.headers.set(name, value);
  };
}
