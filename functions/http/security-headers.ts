/**
 * Security headers on every response (CONTRACT §3): recorded before the rest of the chain runs,
 * so every response built with `respond()` carries them, errors included.
 */

import type { MiddlewareHandler } from "hono";
import { type RequestStep, stepMiddleware } from "./request-step.ts";
import { setResponseHeaders } from "./response-headers.ts";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "no-store",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "default-src 'none'",
  "Referrer-Policy": "no-referrer",
};

export function securityHeadersStep(extra: Readonly<Record<string, string>> = {}): RequestStep {
  const headers = { ...SECURITY_HEADERS, ...extra };
  return function securityHeaders(c) {
    setResponseHeaders(c, headers);
    return undefined;
  };
}

export function securityHeaders(extra: Readonly<Record<string, string>> = {}): MiddlewareHandler {
  return stepMiddleware(securityHeadersStep(extra));
}
