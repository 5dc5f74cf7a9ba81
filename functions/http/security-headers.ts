/**
 * Security headers on every response (CONTRACT §3): recorded before the rest of the chain runs,
 * so every response built with `respond()` carries them, errors included.
 */

import type { MiddlewareHandler } from "hono";
import { setResponseHeader } from "./response-headers.ts";

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
    for (const [name, value] of headers) setResponseHeader(c, name, value);
    await next();
  };
}
