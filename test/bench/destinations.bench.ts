/**
 * Destinations benchmark: 100,000 audit events with `parquet,json` enabled, measured from the
 * first POST (the ingest Hono app in-process via app.request: validation, in-process queue,
 * destination batchers) to the last Parquet row and JSON file on disk (after stop() flushed).
 * One event in ten carries objectData, so 10,000 JSON files are written. A second pass feeds the
 * same events straight to the destinations handler (consumer side only). Row counts are checked
 * with DuckDB afterwards, outside the timing. `BENCH_EVENTS` and `BENCH_CONCURRENCY` (concurrent
 * POSTs, default 8) override the defaults.
 */

import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import type { AuditEnvelope } from "../../core/audit/accepted-event.ts";
import { parseConfig } from "../../core/config/index.ts";
import { selectDestinations } from "../../core/destinations/select-destinations.ts";
import {
  type AuditDestinations,
  createAcceptedEventHandler,
  startAuditDestinations,
} from "../../core/destinations/start-audit-destinations.ts";
import { consoleSink } from "../../core/logging/console-sink.ts";
import { createLogger } from "../../core/logging/logger.ts";
import { systemClock } from "../../core/system-clock.ts";
import type { IngestHttpRequest } from "../../functions/audit-ingest/ingest-handler.ts";
import { localDestinationAdapters } from "../../local/audit/destination-adapters.ts";
import { createLocalIngest } from "../../local/audit/local-ingest.ts";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
/** A POST of `body` from loopback, as the local listener hands it to the ingest handler. */
function loopbackPost(body: string): IngestHttpRequest {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-audit-client-version": "0.3.1",
  };
  return {
    method: "POST",
    path: "/api/v1/audit-event",
    header: (name) => headers[name],
    clientIp: "127.0.0.1",
    contentType: headers["content-type"],
    contentLength: String(Buffer.byteLength(body)),
    readText: async () => body,
  };
}

export interface DestinationsBenchFigures {
  events: number;
  endToEnd: PassFigures;
  consumerOnly: PassFigures;
}

interface PassFigures {
  seconds: number;
  eventsPerSecond: number;
  cpuSeconds: number;
  peakRssMiB: number;
  parquetRows: number;
  jsonFiles: number;
}

function envelope(i: number): AuditEnvelope {
  const timestamp = new Date(Date.UTC(2026, 2, 8, 12) + i * 50).toISOString();
  if (i % 10 === 0) {
    return {
      schemaVersion: 1,
      eventId: randomUUID(),
      timestamp,
      type: "screenshot.url.received",
      correlationId: String(1777868693436 + i),
      payload: {
        context: {
          appId: "0a1b2c3d-0000-4000-8000-000000000001",
          appName: "Sales",
          user: "UserDirectory=LAB; UserId=u1",
        },
        event: {
          screenshotUrl: "https://qlik.example/shot.png",
          selectionTxnId: "5f0c1c5e-2a59-4f4f-9d0e-0b7b8a1c2d3e",
          objectId: `obj-${i % 50}`,
          objectData: {
            objectType: "table",
            dimensions: [{ fieldName: "Region", values: ["Nord", "Süd", "Ost"] }],
          },
        },
      },
    };
  }
  return {
    schemaVersion: 1,
    eventId: randomUUID(),
    timestamp,
    type: "object.view.duration",
    correlationId: String(1777868693436 + i),
    payload: {
      context: {
        appId: "0a1b2c3d-0000-4000-8000-000000000001",
        appName: "Sales",
        sheetId: "sheet-1",
        sheetName: "Overview",
        user: `UserDirectory=LAB; UserId=user${i % 200}`,
      },
      event: {
        objectId: `obj-${i % 50}`,
        duration: 1000 + (i % 5000),
        visible: i % 2 === 0,
        leftAt: timestamp,
      },
    },
  };
}

function benchConfig(root: string) {
  const parsed = parseConfig({
    Service: {
      auditEvents: {
        enable: true,
        rateLimit: { enable: false },
        queue: { maxSize: 10_000 },
        destination: {
          enable: true,
          type: "parquet,json",
          parquet: { exportDirectory: path.join(root, "parquet") },
          json: { objectdata: { enable: true, exportDirectory: path.join(root, "json") } },
        },
      },
    },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

async function startDestinations(
  root: string,
  logger: ReturnType<typeof createLogger>,
): Promise<AuditDestinations> {
  const config = benchConfig(root);
  return startAuditDestinations({
    destinations: selectDestinations(
      config.auditEvents.destination,
      config.timeseriesdbConfig,
      localDestinationAdapters({ cwd: root, logger }),
    ),
    clock: systemClock,
    logger,
  });
}

async function measure(work: () => Promise<void>): Promise<Omit<PassFigures, "parquetRows" | "jsonFiles">> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return {
    seconds: round(seconds),
    eventsPerSecond: Math.round(EVENTS / seconds),
    cpuSeconds: round((used.user + used.system) / 1e6),
    peakRssMiB: Math.round(peak / 1024 / 1024),
  };
}

async function countOnDisk(root: string): Promise<{ parquetRows: number; jsonFiles: number }> {
  const connection = await (await DuckDBInstance.create(":memory:")).connect();
  const result = await connection.runAndReadAll(
    `SELECT count(*)::INTEGER AS n FROM read_parquet('${root}/parquet/**/*.parquet', hive_partitioning = true)`,
  );
  connection.closeSync();
  return {
    parquetRows: Number(result.getRowObjectsJS()[0]?.n),
    jsonFiles: (await readdir(path.join(root, "json"))).length,
  };
}

async function endToEnd(root: string, envelopes: AuditEnvelope[]): Promise<PassFigures> {
  const logger = createLogger({ level: "error", sinks: [consoleSink()] });
  let destinations: AuditDestinations | undefined;
  const figures = await measure(async () => {
    destinations = await startDestinations(root, logger);
    const { handler, queue } = createLocalIngest({
      settings: benchConfig(root).auditEvents,
      handler: createAcceptedEventHandler(destinations),
      logger,
      clock: systemClock,
    });
    let next = 0;
    const post = async () => {
      while (next < envelopes.length) {
        const body = JSON.stringify(envelopes[next++]);
        for (;;) {
          const answer = await handler(loopbackPost(body));
          if (answer.status === 202) break;
          if (answer.status !== 503) throw new Error(`POST answered ${answer.status}: ${answer.body}`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, post));
    await queue.stop();
    await destinations.stop();
  });
  return { ...figures, ...(await countOnDisk(root)) };
}

async function consumerOnly(root: string, envelopes: AuditEnvelope[]): Promise<PassFigures> {
  const logger = createLogger({ level: "error", sinks: [consoleSink()] });
  const figures = await measure(async () => {
    const destinations = await startDestinations(root, logger);
    const handle = createAcceptedEventHandler(destinations);
    const receivedAt = new Date().toISOString();
    for (const envelope of envelopes) await handle({ envelope, receivedAt, clientIp: "127.0.0.1" });
    await destinations.stop();
  });
  return { ...figures, ...(await countOnDisk(root)) };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

export async function run(): Promise<DestinationsBenchFigures> {
  const root = await mkdtemp(path.join(tmpdir(), "steward-bench-destinations-"));
  try {
    const envelopes = Array.from({ length: EVENTS }, (_, i) => envelope(i));
    const e2e = await endToEnd(path.join(root, "e2e"), envelopes);
    const consumer = await consumerOnly(path.join(root, "consumer"), envelopes);
    const figures = { events: EVENTS, endToEnd: e2e, consumerOnly: consumer };
    console.log(`destinations (parquet,json), ${EVENTS} events, 1 in 10 with objectData:`);
    console.table({
      "POST → disk (ingest app + queue + writers)": e2e,
      "consumer only (handler → disk)": consumer,
    });
    return figures;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
