/**
 * POST with `X-HTTP-Method-Override: PUT|DELETE` is handled as that method (the platform's
 * load-script REST connector can only send GET and POST). The request is re-dispatched
 * through the app before any other middleware ran, so it is counted, authenticated and logged
 * once, as the overriding method; its body is streamed through, never buffered here.
 */
import type { Hono, MiddlewareHandler } from "hono";
import { formatRestError } from "./rest-errors.ts";

export const METHOD_OVERRIDE_HEADER = "x-http-method-override";

export function methodOverride(app: Hono): MiddlewareHandler {
  return async function methodOverride(c, next) {
    const requested = c.req.method === "POST" ? c.req.header(METHOD_OVERRIDE_HEADER) : undefined;
    if (requested === undefined) {
      await next();
      return;
    }
    const method = requested.trim().toUpperCase();
    if (method !== "PUT" && method !== "DELETE") {
      return formatRestError(c, { status: 400, reason: "X-HTTP-Method-Override must be PUT or DELETE" });
    }
    const headers = new Headers(c.req.raw.headers);
    headers.delete(METHOD_OVERRIDE_HEADER);
    const init: RequestInit & { duplex?: "half" } = { method, headers, body: c.req.raw.body };
    if (c.req.raw.body !== null) init.duplex = "half";
    return app.fetch(new Request(c.req.url, init), c.env);
  };
}
