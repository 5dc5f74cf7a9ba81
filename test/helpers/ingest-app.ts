/**
 * Builds the ingest API for tests: in-memory adapters, a manual clock, a recording logger. Its
 * requests go through one of the two front doors: the Hono app in-process (`app.request`), or,
 * with `STEWARD_INGEST_FRONT_DOOR=node` (vitest's "ingest via node:http" project), the local
 * node:http listener on a loopback port, so the same test files check both.
 */

import { onTestFinished } from "vitest";
import { createInProcessEventQueue } from "../../core/adapters/local/in-process-event-queue.ts";
import { createMemoryRateLimitStore } from "../../core/adapters/local/memory-rate-limit-store.ts";
import { swaggerUiAssets } from "../../core/adapters/swagger-ui-assets.ts";
import type { AcceptedEvent } from "../../core/audit/accepted-event.ts";
import { defaultConfig } from "../../core/config/index.ts";
import type { EventQueue } from "../../core/ports.ts";
import { type AuditIngestSettings, createApp } from "../../functions/audit-ingest/app.ts";
import { createIngestHandler } from "../../functions/audit-ingest/ingest-handler.ts";
import type { HttpListener } from "../../local/http/http-listener.ts";
import { startIngestListener } from "../../local/http/ingest-listener.ts";
import { createManualClock, type ManualClock } from "./manual-clock.ts";
import { type RecordingLogger, recordingLogger } from "./recording-logger.ts";

/** The default config's ingest settings, as `npm start` uses them. */
export const DEFAULT_TEST_SETTINGS: AuditIngestSettings = defaultConfig().auditEvents;

const FRONT_DOOR_IS_NODE = process.env.STEWARD_INGEST_FRONT_DOOR === "node";

export interface TestIngestApp {
  app: ReturnType<typeof createApp>;
  logger: RecordingLogger;
  clock: ManualClock;
  /** Events the queue's handler received. */
  handled: AcceptedEvent[];
  queue: EventQueue;
  /** Which front door the requests go through. */
  frontDoor: "hono" | "node";
  /** Any request, from `ip`, through the front door under test. */
  request(path: string, init?: RequestInit, ip?: string): Promise<Response>;
  /** POST /api/v1/audit-event with a JSON body from `ip`. */
  post(body: unknown, headers?: Record<string, string>, ip?: string): Promise<Response>;
  get(path: string, headers?: Record<string, string>, ip?: string): Promise<Response>;
}

export interface TestIngestAppOptions {
  settings?: Partial<AuditIngestSettings>;
  queue?: EventQueue;
}

export function createTestIngestApp(options: TestIngestAppOptions = {}): TestIngestApp {
  const logger = recordingLogger();
  const clock = createManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
  const handled: AcceptedEvent[] = [];
  const queue =
    options.queue ??
    createInProcessEventQueue(
      {
        maxSize: 200,
        maxConcurrent: 10,
        backpressureThreshold: 80,
        rateLimit: { enable: false, maxPerMinute: 600 },
      },
      { handler: async (event) => void handled.push(event), logger, clock },
    );
  let currentIp = "203.0.113.5";
  const deps = {
    settings: { ...DEFAULT_TEST_SETTINGS, ...options.settings },
    queue,
    rateLimitStore: createMemoryRateLimitStore(),
    logger,
    clock,
    serverVersion: "15.0.0",
    explorerAssets: swaggerUiAssets(),
  };
  const app = createApp({ ...deps, clientIp: () => currentIp });

  let listener: Promise<HttpListener> | undefined;
  function nodeListener(): Promise<HttpListener> {
    if (listener === undefined) {
      listener = startIngestListener({
        name: "Audit ingest API",
        handler: createIngestHandler(deps),
        clientIp: () => currentIp,
        host: "127.0.0.1",
        port: 0,
        // The API's own log lines are asserted on; the listener's start and stop are not.
        logger: recordingLogger(),
      });
      const started = listener;
      onTestFinished(async () => (await started).stop());
    }
    return listener;
  }
  async function request(path: string, init: RequestInit = {}, ip = "203.0.113.5"): Promise<Response> {
    currentIp = ip;
    if (!FRONT_DOOR_IS_NODE) return app.request(path, init);
    return fetch(`${(await nodeListener()).url}${path}`, init);
  }

  return {
    app,
    logger,
    clock,
    handled,
    queue,
    frontDoor: FRONT_DOOR_IS_NODE ? "node" : "hono",
    request,
    post(body, headers = {}, ip = "203.0.113.5") {
      const text = typeof body === "string" ? body : JSON.stringify(body);
      return request(
        "/api/v1/audit-event",
        { method: "POST", body: text, headers: { "content-type": "application/json", ...headers } },
        ip,
      );
    },
    get(path, headers = {}, ip = "203.0.113.5") {
      return request(path, { headers }, ip);
    },
  };
}

/** An ingestion response body as tests read it. */
export interface IngestionBodyForTest {
  status: string;
  receivedAt: string;
  outcome: string;
  reason?: string;
  details?: { errors?: Array<{ instancePath?: string; message: string }>; [key: string]: unknown };
}

export async function readBody(response: Response): Promise<IngestionBodyForTest> {
  return (await response.json()) as IngestionBodyForTest;
}
