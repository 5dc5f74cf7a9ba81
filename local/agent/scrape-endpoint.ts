/**
 * The scrape endpoint (CONTRACT §7, reference agent §8.4): `GET /metrics` on
 * `scrapeEndpoint.host:port` answers the Prometheus text exposition of every metric declared in
 * the agent's registry — the UDP pipelines', the audit queue's, prom-client's process and Node.js
 * metrics, and whatever a later part declares there. Values are collected when scraped, so the
 * parts that count pay nothing per event. One listener serves it all: the reference's second
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

import type { Server } from "node:http";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import type { ScrapeEndpointConfig } from "../../core/config/index.ts";
import type { Logger } from "../../core/ports.ts";
import { type HttpListener, listenOn } from "../http/http-listener.ts";
import { acceptsGzip, gzipChunks } from "./scrape-gzip.ts";

/**
 * What the endpoint serves: the registry's text exposition as UTF-8 chunks, sent one after the
 * other as they are (PromMetricsRegistry has both members).
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
    const gzipped = acceptsGzip(c.req.header("accept-encoding")) ? gzipOrNot(chunks, logger) : undefined;
    if (gzipped !== undefined) return c.body(gzipped, 200, { ...headers, "Content-Encoding": "gzip" });
    const length = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    return c.body(streamOf(chunks), 200, { ...headers, "Content-Length": String(length) });
  });
  app.all(METRICS_PATH, (c) =>
    c.body("method not allowed\n", 405, { "Content-Type": TEXT, Allow: "GET, HEAD" }),
  );
  app.notFound((c) => c.body("not found\n", 404, { "Content-Type": TEXT }));
  return app;
}

/** zlib fails only without memory; the text itself is then the better answer than a 500. */
function gzipOrNot(chunks: readonly Uint8Array[], logger: Logger): Uint8Array<ArrayBuffer> | undefined {
  try {
    return gzipChunks(chunks);
  } catch (error) {
    logger.warn("gzipping a scrape's answer failed; sending it uncompressed", {
      error: error instanceof Error ? error.message : String(error),
    });
    return undefined;
  }
}

/** The chunks as a body stream: written to the socket one by one, none of them copied. */
function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

export interface ScrapeEndpointOptions extends ScrapeAppOptions {
  /** `config.scrapeEndpoint`: where to listen. */
  config: Pick<ScrapeEndpointConfig, "host" | "port">;
}

/**
 * Listens on `host:port`; a bind failure rejects (start-up stops), stop() is graceful. Unlike the
 * other listeners, answers are written as soon as they are ready, not held to the end of the
 * event-loop turn (batched-responses.ts): a scraper sends one request at a time, so there is
 * nothing to batch, and in an agent busy with polling the end of the turn comes after whatever
 * work the poll rounds queued for it.
 */
export function startScrapeEndpoint(options: ScrapeEndpointOptions): Promise<HttpListener> {
  const app = createScrapeApp(options);
  return listenOn(createAdaptorServer({ fetch: app.fetch }) as Server, {
    name: "Scrape endpoint",
    host: options.config.host,
    port: options.config.port,
    logger: options.logger,
  });
}
