/**
 * JSON request bodies: the content type must be JSON (415), the body at most `maxBytes` (413 —
 * refused from Content-Length up front, and counted while streaming when the length is not
 * declared, so an oversized body is never buffered whole), and it must parse (400). The parsed
 * value is in `c.var.jsonBody`.
 */

import type { MiddlewareHandler } from "hono";
import type { ErrorBodyFormatter } from "./problem.ts";

export interface JsonBodyOptions {
  maxBytes: number;
  formatError: ErrorBodyFormatter;
}

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

class BodyTooLargeError extends Error {
  override readonly name = "BodyTooLargeError";
}

/** Reads a stream of unknown length, giving up as soon as it exceeds `maxBytes`. */
async function readLimited(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new BodyTooLargeError(`body exceeds ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const decoder = new TextDecoder();

export function jsonBody(options: JsonBodyOptions): MiddlewareHandler<JsonBodyEnv> {
  const { maxBytes, formatError } = options;
  const tooLarge = { status: 413, reason: "Request body too large", details: { maxBytes } } as const;

  return async function jsonBody(c, next) {
    if (!isJsonContentType(c.req.header("content-type"))) {
      return formatError(c, { status: 415, reason: "Unsupported content type: expected application/json" });
    }
    const declared = c.req.header("content-length");
    let text: string;
    if (declared !== undefined && /^\d+$/.test(declared.trim())) {
      // HTTP framing stops the body at the declared length, so buffering is bounded by it.
      if (Number(declared) > maxBytes) return formatError(c, tooLarge);
      text = await c.req.text();
      if (text.length > maxBytes) return formatError(c, tooLarge);
    } else {
      const stream = c.req.raw.body;
      if (stream === null) {
        text = "";
      } else {
        try {
          text = decoder.decode(await readLimited(stream, maxBytes));
        } catch (error) {
          if (error instanceof BodyTooLargeError) return formatError(c, tooLarge);
          throw error;
        }
      }
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return formatError(c, { status: 400, reason: "Malformed JSON body" });
    }
    c.set("jsonBody", parsed);
    await next();
  };
}
