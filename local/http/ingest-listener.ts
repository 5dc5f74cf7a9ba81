/**
 * The local front door of the ingest API: node:http straight to the runtime-neutral ingest
 * handler, without a framework in between. On this path a request costs about half of what it
 * costs through Hono on @hono/node-server, which the ingest throughput target needs (docs/performance.md,
 * "Ingest"); every rule lives in the handler, which the Hono app (Lambda, in-process
 * tests) runs too, and one test suite runs against both front doors.
 *
 * Like the other listeners it writes answers in batches, one per event-loop turn. A body the answer
 * does not need (over the limit, or after a 401) is read to its end and thrown away, up to
 * DISCARD_LIMIT_BYTES and 10 s (discard-unread.ts), so a client still sending reads the answer;
 * past that bound the connection is closed instead, and so it is for every answer once the
 * listener is stopping (the durable queue answers after a sync, so requests are in flight more
 * often). It runs on the guarded server every local listener shares (time limits, connection cap,
 * Host check: guarded-server.ts); a refused Host gets its 421 in the ingest API's answer shape.
 * The Qlik Cloud tenants' signed webhooks share the listener under their own path, with a handler
 * of their own that reads the body's raw bytes (`qlikCloudWebhooks`).
 */

import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";
import type { IngestHandler, IngestHttpRequest } from "../../functions/audit-ingest/ingest-handler.ts";
import {
  answerHeaders,
  errorAnswer,
  INTERNAL_ERROR_REASON,
  type IngestAnswer,
} from "../../functions/audit-ingest/ingestion-response.ts";
import { DISCARD_LIMIT_BYTES } from "../../functions/http/discard-limit.ts";
import { RequestAbortedError } from "../../functions/http/request-aborted-error.ts";
import {
  QLIK_CLOUD_WEBHOOK_PREFIX,
  type WebhookAnswer,
  type WebhookHandler,
  type WebhookHttpRequest,
} from "../../functions/qlik-cloud/webhook-handler.ts";
import { createEndOfTurn } from "./batched-responses.ts";
import { abandonBody, discardUnread } from "./discard-unread.ts";
import { type HttpListener, type ListenOptions, serveOn } from "./http-listener.ts";

export interface IngestListenerOptions extends ListenOptions {
  handler: IngestHandler;
  /**
   * The Qlik Cloud tenants' webhooks, served on this listener under their own path prefix
   * (functions/qlik-cloud/webhook-handler.ts) with the body's raw bytes, which their signature
   * covers; absent: that path is the ingest API's, which answers 404.
   */
  qlikCloudWebhooks?: WebhookHandler | undefined;
  /** The client address; by default the socket peer (no proxy header is trusted; see incomingClientIp). */
  clientIp?: (request: IncomingMessage) => string;
}

const socketPeer = (request: IncomingMessage) => request.socket.remoteAddress ?? "unknown";

/**
 * Headers of which node:http keeps only the first line (`message.headers`); Fetch joins repeated
 * lines of every header, and so does `header()` here, from the raw lines.
 */
const FIRST_LINE_ONLY = new Set([
  "age",
  "authorization",
  "content-length",
  "content-type",
  "etag",
  "expires",
  "from",
  "host",
  "if-modified-since",
  "if-unmodified-since",
  "last-modified",
  "location",
  "max-forwards",
  "proxy-authorization",
  "referer",
  "retry-after",
  "server",
  "user-agent",
]);

/** The path of a request target: origin form (`/p?q`) as is, absolute form (`http://h/p`) parsed. */
function pathOf(target: string): string {
  const query = target.indexOf("?");
  const path = query === -1 ? target : target.slice(0, query);
  if (path.startsWith("/")) return path;
  return URL.canParse(target) ? new URL(target).pathname : path;
}

/**
 * A node request as the ingest handler reads it. A class, so a request allocates no closures:
 * this path runs for every event.
 */
class NodeIngestHttpRequest implements IngestHttpRequest, WebhookHttpRequest {
  readonly method: string;
  readonly path: string;
  readonly contentType: string | undefined;
  readonly contentLength: string | undefined;

  constructor(
    private readonly incoming: IncomingMessage,
    readonly clientIp: string,
  ) {
    this.method = incoming.method ?? "GET";
    this.path = pathOf(incoming.url ?? "/");
    this.contentType = this.header("content-type");
    this.contentLength = this.header("content-length");
  }

  /** Repeated lines joined by ", ", as Fetch does. */
  header(name: string): string | undefined {
    if (!FIRST_LINE_ONLY.has(name)) {
      const value = this.incoming.headers[name];
      return Array.isArray(value) ? value.join(", ") : value;
    }
    const raw = this.incoming.rawHeaders;
    let joined: string | undefined;
    for (let i = 0; i < raw.length; i += 2) {
      const line = raw[i] as string;
      if (line.length === name.length && line.toLowerCase() === name) {
        const value = raw[i + 1] as string;
        joined = joined === undefined ? value : `${joined}, ${value}`;
      }
    }
    return joined;
  }

  /**
   * The body as UTF-8; undefined when more than `maxBytes` arrived. The rest of such a body is read
   * and thrown away, so a client still sending reads the 413, up to DISCARD_LIMIT_BYTES; past that
   * the answer comes at once and the connection is closed (the rest is not read).
   */
  async readText(maxBytes: number): Promise<string | undefined> {
    return (await this.readBytes(maxBytes))?.toString("utf8");
  }

  /** The body's bytes as received (what a signature covers); undefined as readText. */
  readBytes(maxBytes: number): Promise<Buffer | undefined> {
    const incoming = this.incoming;
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let total = 0;
      let done = false;
      incoming.on("data", (chunk: Buffer) => {
        if (done) return;
        total += chunk.length;
        if (total <= maxBytes) {
          chunks.push(chunk);
          return;
        }
        chunks.length = 0;
        if (total <= maxBytes + DISCARD_LIMIT_BYTES) return;
        done = true;
        incoming.pause();
        abandonBody(incoming);
        resolve(undefined);
      });
      incoming.once("end", () => {
        if (done) return;
        done = true;
        if (total > maxBytes) {
          resolve(undefined);
          return;
        }
        resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total));
      });
      // The socket closed before the body's end: the client went away (or the shutdown gave up on it).
      incoming.once("error", (error) => {
        reject(
          new RequestAbortedError("the client closed the connection before its body arrived", {
            cause: error,
          }),
        );
      });
    });
  }
}

function write(
  incoming: IncomingMessage,
  response: ServerResponse,
  answer: IngestAnswer | WebhookAnswer,
  closing: boolean,
): void {
  const headers = answer.headers;
  if (answer.body !== null) headers["content-length"] = String(Buffer.byteLength(answer.body));
  if (!incoming.complete || closing) headers.connection = "close";
  response.writeHead(answer.status, headers);
  response.end(answer.body ?? undefined);
}

/** The last line of defence should writing itself fail: a bare 500, the socket closed. */
function writeFailure(response: ServerResponse): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const answer = errorAnswer(answerHeaders(), new Date().toISOString(), {
    status: 500,
    reason: INTERNAL_ERROR_REASON,
  });
  answer.headers.connection = "close";
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
}

/** A request for a Host this listener does not answer (guarded-server.ts), in the ingestion shape. */
function writeMisdirected(response: ServerResponse, message: string): void {
  const answer = errorAnswer(answerHeaders(), new Date().toISOString(), { status: 421, reason: message });
  const body = answer.body ?? "";
  answer.headers["content-length"] = String(Buffer.byteLength(body));
  response.writeHead(answer.status, answer.headers);
  response.end(body);
}

/** The listener's requests: each to the handler, its answer written at the end of the turn. */
function ingestRequests(server: Server, options: IngestListenerOptions): RequestListener {
  const { handler, qlikCloudWebhooks } = options;
  const clientIp = options.clientIp ?? socketPeer;
  const endOfTurn = createEndOfTurn();
  return async function ingestApi(incoming, response) {
    try {
      const request = new NodeIngestHttpRequest(incoming, clientIp(incoming));
      const answer =
        qlikCloudWebhooks !== undefined && request.path.startsWith(QLIK_CLOUD_WEBHOOK_PREFIX)
          ? await qlikCloudWebhooks(request)
          : await handler(request);
      // An answer decided before the body arrived: read the rest first (bounded), so a client
      // still sending reads it; past the bound the connection is closed (write() says so).
      if (!incoming.complete && server.listening) await discardUnread(incoming);
      await endOfTurn();
      // Once the listener is stopping, a kept-alive connection must not carry another request:
      // busy clients would otherwise keep it open, and shutdown waiting, indefinitely.
      write(incoming, response, answer, !server.listening);
    } catch (error) {
      options.logger.error("Could not answer an ingest request", {
        error: error instanceof Error ? error.message : String(error),
      });
      writeFailure(response);
    }
  };
}

export function startIngestListener(options: IngestListenerOptions): Promise<HttpListener> {
  return serveOn({ writeMisdirected, ...options }, (server) => ingestRequests(server, options));
}
