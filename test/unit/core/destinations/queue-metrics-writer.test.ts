import { describe, expect, it } from "vitest";
import { createInProcessEventQueue } from "../../../../core/adapters/local/in-process-event-queue.ts";
import { parseConfig } from "../../../../core/config/index.ts";
import { startQueueMetricsWriter } from "../../../../core/destinations/queue-metrics-writer.ts";
import { TimeseriesWriteError } from "../../../../core/destinations/timeseries-write-error.ts";
import type { EventQueueMetrics } from "../../../../core/ports.ts";
import { encodePoint, type Point } from "../../../../core/shared/line-protocol.ts";
import { createAsyncManualClock } from "../../../helpers/async-manual-clock.ts";
import { acceptedEvent } from "../../../helpers/audit-events.ts";
import { parseLineProtocol } from "../../../helpers/line-protocol-parser.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

function metricsConfig() {
  const parsed = parseConfig({
    Service: {
      auditEvents: {
        enable: true,
        queue: {
          queueMetrics: {
            timeseriesdb: { enable: true, writeFrequency: 5000, tags: [{ name: "env", value: "prod" }] },
          },
        },
      },
      timeseriesdbConfig: { version: 2, v2Config: { org: "o", bucket: "b", token: "t" } },
    },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config.auditEvents.queue.queueMetrics.timeseriesdb;
}

const snapshot = (processed: number): EventQueueMetrics => ({
  received: processed + 3,
  queued: processed + 1,
  processed,
  failed: 1,
  droppedTotal: 5,
  droppedRateLimit: 0,
  droppedQueueFull: 2,
  droppedSize: 3,
  waiting: 1,
  maxSize: 200,
  running: 1,
  utilisationPct: 0.5,
  backpressureActive: false,
  processingTimeAvgMs: 1.25,
  processingTimeP95Ms: 3,
  processingTimeMaxMs: 7.5,
});

function seriesSpy() {
  const spy = {
    points: [] as Point[],
    fail: false,
    ensureDatabase: async () => {},
    async write(points: readonly Point[]) {
      if (spy.fail) throw new TimeseriesWriteError("down", undefined);
      spy.points.push(...points);
    },
    writeLines: () => Promise.reject(new Error("the queue metrics writer writes points")),
  };
  return spy;
}

describe("queue metrics writer", () => {
  it("writes the queue counters every writeFrequency ms with Butler SOS's tags and typed fields", async () => {
    const clock = createAsyncManualClock();
    const series = seriesSpy();
    let processed = 10;
    const service = startQueueMetricsWriter({
      config: metricsConfig(),
      metrics: () => snapshot(processed),
      series,
      version: 2,
      clock,
      logger: recordingLogger(),
      host: "agent-1",
    });

    await clock.advance(4999);
    expect(series.points).toHaveLength(0);
    await clock.advance(1);
    processed = 20;
    await clock.advance(5000);
    await service.stop();

    expect(series.points).toHaveLength(3);
    const [parsed] = parseLineProtocol(encodePoint(series.points[0]!));
    expect(parsed).toEqual({
      measurement: "audit_events_queue",
      tags: { queue_type: "audit_events", host: "agent-1", env: "prod" },
      fields: {
        queue_size: { type: "integer", value: 1 },
        queue_max_size: { type: "integer", value: 200 },
        queue_running: { type: "integer", value: 1 },
        messages_received: { type: "integer", value: 13 },
        messages_queued: { type: "integer", value: 11 },
        messages_processed: { type: "integer", value: 10 },
        messages_failed: { type: "integer", value: 1 },
        messages_dropped_total: { type: "integer", value: 5 },
        messages_dropped_rate_limit: { type: "integer", value: 0 },
        messages_dropped_queue_full: { type: "integer", value: 2 },
        messages_dropped_size: { type: "integer", value: 3 },
        backpressure_active: { type: "integer", value: 0 },
        queue_utilization_pct: { type: "float", value: 0.5 },
        processing_time_avg_ms: { type: "float", value: 1.25 },
        processing_time_p95_ms: { type: "float", value: 3 },
        processing_time_max_ms: { type: "float", value: 7.5 },
      },
      timestamp: clock.now() - 5000,
    });
    expect(series.points[1]?.fields.messages_processed).toEqual({ kind: "integer", value: 20 });
  });

  it("writes the counts as floats into InfluxDB 1.x, as Butler SOS's client without a schema did", async () => {
    const clock = createAsyncManualClock();
    const series = seriesSpy();
    const service = startQueueMetricsWriter({
      config: metricsConfig(),
      metrics: () => snapshot(10),
      series,
      version: 1,
      clock,
      logger: recordingLogger(),
      host: "h",
    });

    await service.stop();

    const [parsed] = parseLineProtocol(encodePoint(series.points[0]!));
    // Every field of the point (pinned one by one in the first test) is a float.
    expect(Object.keys(parsed!.fields).length).toBeGreaterThanOrEqual(16);
    expect(new Set(Object.values(parsed!.fields).map((field) => field.type))).toEqual(new Set(["float"]));
    expect(parsed!.fields.messages_processed).toEqual({ type: "float", value: 10 });
  });

  it("takes the in-process queue's metrics as they are", async () => {
    const clock = createAsyncManualClock();
    const series = seriesSpy();
    const queue = createInProcessEventQueue(
      {
        maxSize: 10,
        maxConcurrent: 1,
        backpressureThreshold: 80,
        rateLimit: { enable: false, maxPerMinute: 600 },
      },
      { handler: async () => {}, logger: recordingLogger(), clock },
    );
    await queue.enqueue(acceptedEvent());
    await queue.drain();
    const service = startQueueMetricsWriter({
      config: metricsConfig(),
      metrics: () => queue.metrics(),
      series,
      version: 2,
      clock,
      logger: recordingLogger(),
      host: "h",
    });

    await service.stop();
    await queue.stop();

    expect(series.points[0]?.fields).toMatchObject({
      messages_received: { kind: "integer", value: 1 },
      messages_processed: { kind: "integer", value: 1 },
      queue_max_size: { kind: "integer", value: 10 },
    });
  });

  it("logs a failed write and keeps writing afterwards", async () => {
    const clock = createAsyncManualClock();
    const series = seriesSpy();
    const logger = recordingLogger();
    const service = startQueueMetricsWriter({
      config: metricsConfig(),
      metrics: () => snapshot(1),
      series,
      version: 2,
      clock,
      logger,
      host: "h",
    });
    series.fail = true;

    await clock.advance(5000);
    series.fail = false;
    await clock.advance(5000);
    await service.stop();

    expect(logger.at("error")).toHaveLength(1);
    expect(series.points).toHaveLength(2);
    expect(clock.pendingTimers()).toBe(0);
  });
});
