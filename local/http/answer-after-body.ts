/**
 * The answer of a Hono app served by @hono/node-server, held until the request body has been read
 * to its end (discard-unread.ts), for every local listener: the REST API, the config UI and status
 * page, the scrape endpoint. An answer decided before the body arrived (a 413 from the declared
 * length, a 404, a 401) would otherwise be written while the client is still uploading; a client
 * that sent `Connection: close` then has its connection closed under it, and reads a write error
 * (EPIPE) or a reset (ECONNRESET) instead of the answer. The ingest listener, which is not a Hono
 * app, reads out its bodies with the same discardUnread.
 *
 * The rest of the body is read and thrown away, never buffered, up to DISCARD_LIMIT_BYTES
 * (16 MiB) and 10 s: far more than any client of these APIs sends on purpose (the body limits
 * default to 1 MiB), and a bound no client can make a listener read past. Beyond either, the answer
 * goes out at once with `Connection: close`.
 */
import { IncomingMessage } from "node:http";
import type { Http2Bindings, HttpBindings } from "@hono/node-server";
import { discardUnread } from "./discard-unread.ts";

/** What @hono/node-server calls (the local listeners are HTTP/1.1: never Http2Bindings in practice). */
type NodeFetch = (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>;

/** `fetch`, whose answer waits for the rest of its request's body (bounded). */
export function answerAfterBody(fetch: NodeFetch): NodeFetch {
  return async function fetchAfterBody(request, env) {
    const response = await fetch(request, env);
    const { incoming, outgoing } = env;
    if (!(incoming instanceof IncomingMessage) || incoming.complete) return response;
    // A body given up on (past the bound) is not read further: the connection cannot carry
    // another request, so the answer says it closes.
    if (!(await discardUnread(incoming))) outgoing.setHeader("connection", "close");
    return response;
  };
}
