/** Builds the ingest app for tests: in-memory adapters, a manual clock, a recording logger. */

import { createInProcessEventQueue } from "../../core/adapters/local/in-process-event-queue.ts";
import { createMemoryRateLimitStore } from "../../core/adapters/local/memory-rate-limit-store.ts";
import type { AcceptedEvent } from "../../core/audit/accepted-event.ts";
import { defaultConfig } from "../../core/config/pure.ts";
import type { EventQueue } from "../../core/ports.ts";
import { type AuditIngestSettings, createApp } from "../../functions/audit-ingest/app.ts";
import { createManualClock, type ManualClock } from "./manual-clock.ts";
import { type RecordingLogger, recordingLogger } from "./recording-logger.ts";

/** The default config's ingest settings (CONTRACT §2), as `npm start` uses them. */
export const DEFAULT_TEST_SETTINGS: AuditIngestSettings = defaultConfig().auditEvents;

export interface TestIngestApp {
  app: ReturnType<typeof createApp>;
  logger: RecordingLogger;
  clock: ManualClock;
  /** Events the queue's handler received. */
  handled: AcceptedEvent[];
  queue: EventQueue;
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
  const app = createApp({
    settings: { ...DEFAULT_TEST_SETTINGS, ...options.settings },
    queue,
    rateLimitStore: createMemoryRateLimitStore(),
    clientIp: () => currentIp,
    logger,
    clock,
    serverVersion: "15.0.0",
  });
  return {
    app,
    logger,
    clock,
    handled,
    queue,
    post(body, headers = {}, ip = "203.0.113.5") {
      currentIp = ip;
      const text = typeof body === "string" ? body : JSON.stringify(body);
      return Promise.resolve(
        app.request("/api/v1/audit-event", {
          method: "POST",
          body: text,
          headers: { "content-type": "application/json", ...headers },
        }),
      );
    },
    get(path, headers = {}, ip = "203.0.113.5") {
      currentIp = ip;
      return Promise.resolve(app.request(path, { headers }));
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
