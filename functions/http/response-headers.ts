/**
 * Response headers collected while a request passes the middleware, applied by `respond()` when
 * the response is built. Middleware records its headers here instead of `c.header()`, and every
 * response of an app using these middleware is built with `respond()`: a plain header record lets
 * @hono/node-server write the response on its fast path (a `Headers` object costs a conversion
 * per response), and one place applies the security, CORS and rate-limit headers to every answer.
 */

import type { Context } from "hono";
import type { StatusCode } from "hono/utils/http-status";

const pending = new WeakMap<Context, Record<string, string>>();

/** Sets `name` on the response this request will get (last value wins). */
export function setResponseHeader(c: Context, name: string, value: string): void {
  const headers = pending.get(c);
  if (headers === undefined) pending.set(c, { [name]: value });
  else headers[name] = value;
}

/** The response, carrying every header recorded for this request. */
export function respond(c: Context, body: string | null, status: StatusCode, contentType?: string): Response {
  const headers = pending.get(c) ?? {};
  if (contentType !== undefined) headers["content-type"] = contentType;
  return new Response(body, { status, headers });
}

/** A JSON response carrying every header recorded for this request. */
export function respondJson(c: Context, value: unknown, status: StatusCode): Response {
  return respond(c, JSON.stringify(value), status, "application/json");
}
