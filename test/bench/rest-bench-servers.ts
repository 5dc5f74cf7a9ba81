/**
 * Child process of rest.bench.ts: serves, on loopback ephemeral ports, (1) a trivial node:http
 * server answering a small JSON body (reading the request body first on POST) and (2) the REST
 * app as `npm start` serves it — Steward's listener (@hono/node-server, answers batched per
 * event-loop turn), the durable WAL key-value store in a temp dir, schedules on YAML — with the
 * rate limit off (the load generator is one IP and would be limited after 600 requests) and the
 * logger at `info` with no sink (no per-request line at that level), plus (3) the trivial server
 * sending Steward's response headers, and (4) a bare Hono app on plain `serve()` sending the
 * same (what the framework alone costs). Prints the ports and the temp dir as JSON on stdout.
 */

import { mkdtemp } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { openFileKeyValueStore } from "../../core/adapters/local/file-key-value-store.ts";
import { createMemoryRateLimitStore } from "../../core/adapters/local/memory-rate-limit-store.ts";
import { openYamlScheduleStore } from "../../core/adapters/local/yaml-schedule-store.ts";
import { parseConfig } from "../../core/config/index.ts";
import { createLogger } from "../../core/logging/logger.ts";
import { createLoggingTaskStarter } from "../../core/schedules/logging-task-starter.ts";
import { createScheduleManager } from "../../core/schedules/schedule-manager.ts";
import { startScheduler } from "../../core/schedules/scheduler.ts";
import { systemClock } from "../../core/system-clock.ts";
import { nodeClientIp } from "../../functions/http/node-client-ip.ts";
import { securityHeaderRecord } from "../../functions/http/security-headers.ts";
import { createApp } from "../../functions/rest/app.ts";
import { startHttpListener } from "../../local/http/http-listener.ts";

const dir = await mkdtemp(join(tmpdir(), "steward-rest-bench-"));
const logger = createLogger({ level: "info", sinks: [] });

const baseline = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    const body = JSON.stringify({ response: "ok", value: "v" });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
});
await new Promise<void>((resolve) => baseline.listen(0, "127.0.0.1", resolve));

/** The same trivial server, but sending the response headers Steward sends (security headers). */
const sameHeaders = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    const body = JSON.stringify({ response: "ok", value: "v" });
    const headers = securityHeaderRecord();
    headers["content-type"] = "application/json";
    headers["content-length"] = String(Buffer.byteLength(body));
    res.writeHead(200, headers);
    res.end(body);
  });
});
await new Promise<void>((resolve) => sameHeaders.listen(0, "127.0.0.1", resolve));

/**
 * The framework alone: a bare Hono app with the same headers and body on plain
 * @hono/node-server `serve()`, without the answer batching of Steward's listener.
 */
const bare = new Hono();
bare.all("*", async (c) => {
  if (c.req.method === "POST") await c.req.text();
  const headers = securityHeaderRecord();
  headers["content-type"] = "application/json";
  return new Response(JSON.stringify({ response: "ok", value: "v" }), { headers });
});
const bareHono = await new Promise<{ port: number; stop(): Promise<void> }>((resolve) => {
  const server = serve({ fetch: bare.fetch, port: 0, hostname: "127.0.0.1" }, (info) =>
    resolve({ port: info.port, stop: () => new Promise<void>((done) => server.close(() => done())) }),
  );
});

const parsed = parseConfig({ Service: { restServer: { rateLimit: { enable: false } } } });
if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
const config = parsed.config;
const kv = await openFileKeyValueStore({
  file: join(dir, "key-values.json"),
  clock: systemClock,
  maxKeysPerNamespace: config.keyValueStore.maxKeysPerNamespace,
});
const scheduleStore = await openYamlScheduleStore({ file: join(dir, "schedules.yaml") });
const scheduler = await startScheduler({
  store: scheduleStore,
  clock: systemClock,
  taskStarter: createLoggingTaskStarter(logger),
  logger,
});
const app = createApp({
  config: config.restServer,
  logger,
  clock: systemClock,
  rateLimitStore: createMemoryRateLimitStore(),
  clientIp: nodeClientIp,
  services: {
    keyValues: kv,
    schedules: createScheduleManager({ store: scheduleStore, clock: systemClock, runner: scheduler }),
  },
});
const steward = await startHttpListener({ name: "REST API", app, host: "127.0.0.1", port: 0, logger });
await kv.set("bench", "key", "value");

const portOf = (server: typeof baseline) => (server.address() as AddressInfo).port;
process.stdout.write(
  `${JSON.stringify({ baseline: portOf(baseline), sameHeaders: portOf(sameHeaders), bareHono: bareHono.port, steward: steward.port, dir })}\n`,
);
process.on("SIGTERM", () => {
  void (async () => {
    await steward.stop();
    await bareHono.stop();
    await scheduler.stop();
    await kv.close();
    baseline.close();
    sameHeaders.close();
    process.exit(0);
  })();
});
