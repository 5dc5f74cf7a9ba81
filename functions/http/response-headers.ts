/**
 * Response headers collected while a request passes the middleware, applied by `respond()` when
 * the response is built. Middleware records its headers here instead of `c.header()`, and every
 * response of an app using these middleware is built with `respond()`: a plain header record lets
 * @hono/node-server write the response on its fast path (a `Headers` object costs a conversion
 * per response), and one place applies the security, CORS and rate-limit headers to every answer.
 * The record hangs off the request's Context under a private symbol: a WeakMap keyed by every
 * request's Context cost the ingest server 12–20 MB of peak RSS under load (docs/performance.md,
 * "Ingest").
 */

import type { Context } from "hono";
import type { StatusCode } from "hono/utils/http-status";

const PENDING = Symbol("pendingResponseHeaders");

type WithPending = Context & { [PENDING]?: Record<string, string> };

/** Sets `name` on the response this request will get (last value wins). */
export function setResponseHeader(c: Context, name: string, value: string): void {
  const headers = (c as WithPending)[PENDING];
  if (headers === undefined) (c as WithPending)[PENDING] = { [name]: value };
  else headers[name] = value;
}

/** The response, carrying every header recorded for this request. */
export function respond(c: Context, body: string | null, status: StatusCode, contentType?: string): Response {
  const headers = (c as WithPending)[PENDING] ?? {};
  if (contentType !== undefined) headers["content-type"] = contentType;
  return new Response(body, { status, headers });
}

/** A JSON response carrying every header recorded for this request. */
export function respondJson(c: Context, value: unknown, status: StatusCode): Response {
  return respond(c, JSON.stringify(value), status, "application/json");
}
