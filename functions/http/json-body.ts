/**
 * JSON request bodies: the content type must be JSON (415), the body at most `maxBytes` (413 —
 * refused from Content-Length up front, and counted while streaming when the length is not
 * declared, so an oversized body is never buffered whole), it must parse (400), and nest at most
 * MAX_JSON_DEPTH levels (400 naming, as a JSON pointer, where it passed them; why: json-depth.ts).
 *
 * `readJsonBody` reads any runtime's request through the small `RequestBody` interface; the
 * `jsonBody` middleware applies it to a Hono request and puts the value in `c.var.jsonBody`.
 */

import type { Context, MiddlewareHandler } from "hono";
import { DISCARD_LIMIT_BYTES } from "./discard-limit.ts";
import { MAX_JSON_DEPTH, tooDeepAt } from "./json-depth.ts";
import type { ErrorBodyFormatter, HttpProblem } from "./problem.ts";

/** A request body as `readJsonBody` reads it. */
export interface RequestBody {
  contentType: string | undefined;
  contentLength: string | undefined;
  /**
   * The body as UTF-8 text, or undefined as soon as it exceeds `maxBytes`. Rejects with
   * RequestAbortedError (request-aborted-error.ts) when the client goes away before its end.
   */
  readText(maxBytes: number): Promise<string | undefined>;
}

export interface JsonBodyOptions {
  maxBytes: number;
  /**
   * Makes the body optional: an empty (or whitespace-only) body, whatever its content type, is
   * read as this value. A non-empty body must still be JSON (415) and parse (400).
   */
  whenEmpty?: unknown;
}

/** `text` is the body as read (empty for an absent optional body). */
export type JsonBodyResult = { ok: true; value: unknown; text: string } | { ok: false; problem: HttpProblem };

export interface JsonBodyEnv {
  Variables: { jsonBody: unknown };
}

/** `application/json` or any `+json` media type, parameters ignored. */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const semicolon = header.indexOf(";");
  const mediaType = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  return (
    mediaType === "application/json" || (mediaType.startsWith("application/") && mediaType.endsWith("+json"))
  );
}

const UNSUPPORTED: JsonBodyResult = {
  ok: false,
  problem: { status: 415, reason: "Unsupported content type: expected application/json" },
};
const MALFORMED: JsonBodyResult = { ok: false, problem: { status: 400, reason: "Malformed JSON body" } };

/** The reason of a body nested too deeply; the pointer is in the reason too, for answers without details. */
export const TOO_DEEP_REASON = `JSON nested deeper than ${MAX_JSON_DEPTH} levels`;

function tooDeep(pointer: string): JsonBodyResult {
  return {
    ok: false,
    problem: {
      status: 400,
      reason: `${TOO_DEEP_REASON} at ${pointer}`,
      details: {
        maxDepth: MAX_JSON_DEPTH,
        errors: [{ instancePath: pointer, message: `opens level ${MAX_JSON_DEPTH + 1}` }],
      },
    },
  };
}

function tooLarge(maxBytes: number): JsonBodyResult {
  return { ok: false, problem: { status: 413, reason: "Request body too large", details: { maxBytes } } };
}

/** A Content-Length header's value when it is a plain decimal number. */
function declaredLength(header: string | undefined): number | undefined {
  const text = header?.trim();
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

export async function readJsonBody(body: RequestBody, options: JsonBodyOptions): Promise<JsonBodyResult> {
  const { maxBytes } = options;
  const optional = "whenEmpty" in options;
  // An optional body is read first: only a non-empty one needs the JSON content type.
  const isJson = isJsonContentType(body.contentType);
  if (!isJson && !optional) return UNSUPPORTED;
  const declared = declaredLength(body.contentLength);
  if (declared !== undefined && declared > maxBytes) return tooLarge(maxBytes);
  const text = await body.readText(maxBytes);
  if (text === undefined) return tooLarge(maxBytes);
  if (optional && text.trim() === "") return { ok: true, value: options.whenEmpty, text: "" };
  if (!isJson) return UNSUPPORTED;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return MALFORMED;
  }
  const pointer = tooDeepAt(text);
  return pointer === undefined ? { ok: true, value, text } : tooDeep(pointer);
}

/**
 * Reads a UTF-8 stream of unknown length as text, decoded as it arrives; past `maxBytes` it keeps
 * nothing and answers undefined once the stream ended, or at once (cancelling it, which closes
 * the connection) when it also passes DISCARD_LIMIT_BYTES (discard-limit.ts).
 */
async function readLimitedText(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<string | undefined> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    total += value.byteLength;
    if (total > maxBytes) return discardRest(reader, total, maxBytes);
    text += decoder.decode(value, { stream: true });
  }
}

/** Reads the rest of a body over its limit and throws it away, up to DISCARD_LIMIT_BYTES. */
async function discardRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  total: number,
  maxBytes: number,
): Promise<undefined> {
  let read = total;
  while (read <= maxBytes + DISCARD_LIMIT_BYTES) {
    const { done, value } = await reader.read();
    if (done) return undefined;
    read += value.byteLength;
  }
  await reader.cancel();
  return undefined;
}

/** A Hono request's body: with a declared length, HTTP framing bounds the buffering by it. */
export function honoRequestBody(c: Context): RequestBody {
  const contentLength = c.req.header("content-length");
  const declared = declaredLength(contentLength);
  return {
    contentType: c.req.header("content-type"),
    contentLength,
    async readText(maxBytes) {
      if (declared !== undefined) {
        const text = await c.req.text();
        return text.length > maxBytes ? undefined : text;
      }
      const stream = c.req.raw.body;
      return stream === null ? "" : readLimitedText(stream, maxBytes);
    },
  };
}

export function jsonBody(
  options: JsonBodyOptions & { formatError: ErrorBodyFormatter },
): MiddlewareHandler<JsonBodyEnv> {
  const { formatError } = options;
  return async function jsonBody(c, next) {
    const result = await readJsonBody(honoRequestBody(c), options);
    if (!result.ok) return formatError(c, result.problem);
    c.set("jsonBody", result.value);
    await next();
  };
}
