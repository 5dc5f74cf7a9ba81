/**
 * Child process for the ingest benchmark. `ingest` serves the ingest app as the local runtime
 * does (createLocalIngest on startIngestListener: in-process queue, in-memory rate limiter, token
 * on, info-level console logging); `trivial` a bare node:http server answering 202; `hono` a bare
 * Hono app parsing the body and answering 202 (the framework's own cost); `hono-headers` the same
 * answering with the headers Steward puts on every counted response (security and rate-limit
 * headers); `ingest-durable` the same ingest with the durable queue on (each event synced to a log
 * in a temp directory before its 202, one destination reading the log back and counting). The
 * two bare apps run on plain @hono/node-server `serve()`, without the listener's
 * response batching: they show what the framework alone costs. Prints `READY <port>` when
 * listening.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createDurableEventQueue } from "../../core/adapters/local/durable-queue/durable-event-queue.ts";
import { openDurableLog } from "../../core/adapters/local/durable-queue/durable-log.ts";
import { consoleSink } from "../../core/logging/console-sink.ts";
import { createLogger } from "../../core/logging/logger.ts";
import { systemClock } from "../../core/system-clock.ts";
import { securityHeaderRecord } from "../../functions/http/security-headers.ts";
import { createLocalIngest } from "../../local/audit/local-ingest.ts";
import { startIngestListener } from "../../local/http/ingest-listener.ts";

export const BENCH_TOKEN = "bench-token-0123456789";

const QUEUE_SETTINGS = {
  maxSize: 10_000,
  maxConcurrent: 10,
  backpressureThreshold: 80,
  rateLimit: { enable: false, maxPerMinute: 600 },
};

/** The durable queue as `npm start` builds it, with one destination that counts and writes at once. */
async function durableQueue(logger: ReturnType<typeof createLogger>, count: () => void) {
  // Under ./data/, where the default configuration keeps the queue: the disk `npm start` syncs to.
  mkdirSync(join(process.cwd(), "data"), { recursive: true });
  const directory = mkdtempSync(join(process.cwd(), "data", "bench-audit-queue-"));
  process.on("exit", () => rmSync(directory, { recursive: true, force: true }));
  const log = await openDurableLog({
    directory,
    destinations: ["bench"],
    maxDiskBytes: 1024 * 1024 * 1024,
    clock: systemClock,
    logger,
  });
  const queue = createDurableEventQueue(QUEUE_SETTINGS, {
    log,
    destinations: ["bench"],
    deliver: async (destination, event) => {
      count();
      queue.written(destination, [event]);
    },
    logger,
    clock: systemClock,
  });
  return queue;
}

async function startIngest(durable: boolean): Promise<void> {
  const logger = createLogger({ level: "info", sinks: [consoleSink()] });
  let handled = 0;
  const queue = durable
    ? await durableQueue(logger, () => {
        handled += 1;
      })
    : undefined;
  // The local runtime's ingest (in-process queue, in-memory rate limiter) on the listener
  // `npm start` uses; the destinations are not part of this benchmark: the handler only counts.
  const ingest = createLocalIngest({
    settings: {
      apiToken: BENCH_TOKEN,
      maxBodyBytes: 1_048_576,
      correlationIdMaxLength: 64,
      compatibility: [{ serverRange: ">=15.0.0 <16.0.0", clientRange: ">=0.3.0 <0.4.0" }],
      cors: { allowedOrigins: [] },
      rateLimit: { enable: true, maxPerMinute: 100_000_000 },
      queue: QUEUE_SETTINGS,
    },
    handler: async () => {
      handled += 1;
    },
    ...(queue === undefined ? {} : { queue }),
    logger,
    clock: systemClock,
  });
  const listener = await startIngestListener({
    name: "Audit ingest API",
    handler: ingest.handler,
    host: "127.0.0.1",
    port: 0,
    logger: createLogger({ level: "info", sinks: [] }),
  });
  process.stdout.write(`READY ${listener.port}\n`);
  process.on("SIGTERM", () => {
    void listener
      .stop()
      .then(() => ingest.queue.stop())
      .then(() => {
        process.stdout.write(`HANDLED ${handled}\n`);
        process.exit(0);
      });
  });
}

function startTrivial(): void {
  const body = '{"status":"accepted"}';
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(202, { "content-type": "application/json", "content-length": body.length });
      res.end(body);
    });
  });
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`READY ${(server.address() as AddressInfo).port}\n`);
  });
  process.on("SIGTERM", () => {
    server.close();
    process.exit(0);
  });
}

/**
 * The framework floor: Hono on @hono/node-server parsing the JSON body and answering 202; with
 * `contractHeaders`, also sending the security and rate-limit headers every ingest answer carries.
 */
function startBareHono(contractHeaders: boolean): void {
  const app = new Hono();
  app.post("/", async (c) => {
    JSON.parse(await c.req.text());
    const body = { status: "accepted", receivedAt: new Date().toISOString(), outcome: "processed" };
    if (!contractHeaders) return c.json(body, 202);
    const headers = securityHeaderRecord();
    headers["X-RateLimit-Limit"] = "100000000";
    headers["X-RateLimit-Remaining"] = "99999999";
    headers["X-RateLimit-Reset"] = String(Math.ceil(Date.now() / 60_000) * 60);
    headers["content-type"] = "application/json";
    return new Response(JSON.stringify(body), { status: 202, headers });
  });
  serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
    process.stdout.write(`READY ${info.port}\n`);
  });
  process.on("SIGTERM", () => process.exit(0));
}

const kind = process.argv[2];
if (kind === "trivial") startTrivial();
else if (kind === "hono") startBareHono(false);
else if (kind === "hono-headers") startBareHono(true);
else await startIngest(kind === "ingest-durable");
