/**
 * The scrape endpoint: `GET /metrics` on
 * `scrapeEndpoint.host:port` answers the Prometheus text exposition of every metric declared in
 * the agent's registry — the UDP pipelines', the audit queue's, prom-client's process and Node.js
 * metrics, and whatever a later part declares there. Values are collected when scraped, so the
 * parts that count pay nothing per event. One listener serves it all: Butler SOS's second
 * listener for the process metrics is not kept.
 *
 * A scraper that accepts gzip (Prometheus does) gets the answer gzipped (`Content-Encoding: gzip`,
 * scrape-gzip.ts); others get the text as it is. Every answer says `Vary: Accept-Encoding`.
 *
 * `HEAD /metrics` answers the same headers without a body; any other method on `/metrics` is 405,
 * any other path 404. No request body is ever read. A collect that throws makes the scrape 500
 * with a short text body (the reason goes to the log, never to the scraper): a partial picture
 * would read as counters that went back.
 */

import type { ServerResponse } from "node:http";
import { getRequestListener, type HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { Hono } from "hono";
import { openListenerWarning, type ScrapeEndpointConfig } from "../../core/config/index.ts";
import type { HttpRefusalReason } from "../../core/monitoring/http-refused-metric.ts";
import type { Logger } from "../../core/ports.ts";
import { answerAfterBody } from "../http/answer-after-body.ts";
import { type HttpListener, serveOn } from "../http/http-listener.ts";
import { type ListenerTls, listenerTls } from "../http/listener-certificate.ts";
import { listening, startTracked } from "../status/tracked-part.ts";
import type { AgentPart } from "./agent-part.ts";
import { acceptsGzip, createChunkGzip } from "./scrape-gzip.ts";

/**
 * What the endpoint serves: the registry's text exposition as UTF-8 chunks, sent as they are,
 * together (PromMetricsRegistry has both members).
 */
export interface MetricsExposition {
  chunks(): Promise<readonly Uint8Array[]>;
  readonly contentType: string;
}

export interface ScrapeAppOptions {
  exposition: MetricsExposition;
  logger: Logger;
}

export const METRICS_PATH = "/metrics";

const TEXT = "text/plain; charset=utf-8";

/** The endpoint as a Hono app (Web Request → Response), served by `startScrapeEndpoint`. */
export function createScrapeApp(options: ScrapeAppOptions): Hono {
  const { exposition, logger } = options;
  const app = new Hono();
  const gzipChunks = createChunkGzip();
  // Hono answers HEAD with this GET handler's status and headers, without the body.
  app.get(METRICS_PATH, async function scrapeMetrics(c) {
    let chunks: readonly Uint8Array[];
    try {
      chunks = await exposition.chunks();
    } catch (error) {
      logger.error("collecting metrics for a scrape failed", {
        error: error instanceof Error ? error.message : String(error),
      });
      return c.body("metrics collection failed\n", 500, {
        "Content-Type": TEXT,
        "Cache-Control": "no-store",
      });
    }
    const headers = {
      "Content-Type": exposition.contentType,
      "Cache-Control": "no-store",
      Vary: "Accept-Encoding",
    };
    const gzipped = acceptsGzip(c.req.header("accept-encoding"))
      ? gzipOrNot(gzipChunks, chunks, logger)
      : undefined;
    if (gzipped !== undefined) return c.body(gzipped, 200, { ...headers, "Content-Encoding": "gzip" });
    const length = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    const identity = { ...headers, "Content-Length": String(length) };
    const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
    // HEAD goes through Hono, which answers it with the GET handler's headers and no body.
    if (outgoing !== undefined && c.req.method === "GET") return writeAtOnce(outgoing, identity, chunks);
    return c.body(streamOf(chunks), 200, identity);
  });
  app.all(METRICS_PATH, (c) =>
    c.body("method not allowed\n", 405, { "Content-Type": TEXT, Allow: "GET, HEAD" }),
  );
  app.notFound((c) => c.body("not found\n", 404, { "Content-Type": TEXT }));
  return app;
}

/** zlib fails only without memory; the text itself is then the better answer than a 500. */
function gzipOrNot(
  gzipChunks: ReturnType<typeof createChunkGzip>,
  chunks: readonly Uint8Array[],
  logger: Logger,
): Uint8Array<ArrayBuffer> | undefined {
  try {
    return gzipChunks(chunks);
  } catch (error) {
    logger.warn("gzipping a scrape's answer failed; sending it uncompressed", {
      error: error instanceof Error ? error.message : String(error),
    });
    return undefined;
  }
}

/**
 * Served over node:http: the chunks handed to the socket in one write (corked), none of them
 * copied. Sent as a body stream, each chunk waited for the socket to drain the one before and for
 * a turn of the event loop to pull the next; in an agent busy with a poll round each such turn
 * came after the round's queued work, and 200 servers' 490 KB in about 25 chunks took up to
 * 18–23 ms (p99) instead of 11–13 ms.
 */
function writeAtOnce(
  outgoing: ServerResponse,
  headers: Readonly<Record<string, string>>,
  chunks: readonly Uint8Array[],
): Response {
  outgoing.writeHead(200, headers);
  // Held until end(), which uncorks: the socket gets every chunk in one writev.
  outgoing.cork();
  for (const chunk of chunks) outgoing.write(chunk);
  outgoing.end();
  return RESPONSE_ALREADY_SENT;
}

/** The chunks as a body stream (the app served in-process, e.g. `app.request()`), none copied. */
function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

export interface ScrapeEndpointOptions extends ScrapeAppOptions {
  /** `config.scrapeEndpoint`: where to listen, and the names it answers besides loopback and addresses. */
  config: Pick<ScrapeEndpointConfig, "host" | "port"> & Partial<Pick<ScrapeEndpointConfig, "allowedHosts">>;
  /** Counts what the listener refuses before answering (`steward_http_refused_total`). */
  countRefused?: ((reason: HttpRefusalReason) => void) | undefined;
  /** HTTPS with this certificate (`scrapeEndpoint.tls`); plain HTTP without. */
  tls?: ListenerTls | undefined;
}

/**
 * Listens on `host:port`; a bind failure rejects (start-up stops), stop() is graceful. Unlike the
 * other listeners, answers are written as soon as they are ready, not held to the end of the
 * event-loop turn (batched-responses.ts): a scraper sends one request at a time, so there is
 * nothing to batch, and in an agent busy with polling the end of the turn comes after whatever
 * work the poll rounds queued for it. Like theirs, an answer waits for the rest of its request's
 * body (answer-after-body.ts): a scraper sends none, but any other client may; and like theirs it
 * runs behind the guards of guarded-server.ts (time limits, connection cap, Host check).
 */
export function startScrapeEndpoint(options: ScrapeEndpointOptions): Promise<HttpListener> {
  const app = createScrapeApp(options);
  const requests = getRequestListener(answerAfterBody(app.fetch));
  return serveOn(
    {
      name: "Scrape endpoint",
      host: options.config.host,
      port: options.config.port,
      allowedHosts: options.config.allowedHosts,
      hostsSetting: "scrapeEndpoint.allowedHosts",
      countRefused: options.countRefused,
      tls: options.tls,
      logger: options.logger,
    },
    () => requests,
  );
}

/**
 * The scrape endpoint as an agent part (`scrapeEndpoint.enable`): listed after every part that
 * declares metrics, so it serves once they all have, and stops before them.
 */
export const scrapeEndpointPart: AgentPart = {
  name: "scrape-endpoint",
  enabled: (config) => config.scrapeEndpoint.enable,
  start: ({ config, metrics, logger, status, httpRefused, cwd }) => {
    const warning = openListenerWarning(config, "scrapeEndpoint");
    if (warning !== undefined) logger.warn(warning);
    return startTracked(
      "scrape-endpoint",
      () =>
        startScrapeEndpoint({
          config: config.scrapeEndpoint,
          exposition: metrics,
          logger: logger.child("scrape"),
          countRefused: httpRefused.counter("scrape"),
          tls: listenerTls(config, "scrapeEndpoint", cwd),
        }),
      listening(status, "Scrape endpoint"),
    );
  },
};
