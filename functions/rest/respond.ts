/**
 * Responses of the REST routes, built with the shared `respond()` (functions/http/response-headers.ts)
 * so they carry the security, CORS and rate-limit headers recorded by the middleware, on
 * @hono/node-server's fast path (plain header record).
 */
import type { Context } from "hono";
import type { StatusCode } from "hono/utils/http-status";
import { respond, respondJson } from "../http/response-headers.ts";

export function jsonResponse(c: Context, value: unknown, status: StatusCode = 200): Response {
  return respondJson(c, value, status);
}

export function textResponse(c: Context, text: string): Response {
  return respond(c, text, 200, "text/plain; charset=UTF-8");
}

export function htmlResponse(c: Context, html: string): Response {
  return respond(c, html, 200, "text/html; charset=UTF-8");
}

/** A pre-serialised JSON body (the OpenAPI document). */
export function jsonTextResponse(c: Context, json: string): Response {
  return respond(c, json, 200, "application/json");
}

export function emptyResponse(c: Context, status: StatusCode = 204): Response {
  return respond(c, null, status);
}
