/**
 * Writes the local audit queue's counters to the time-series database every `writeFrequency` ms
 * (measurement `audit_events_queue` by default; tags and fields as reference audit-ingest §3.3).
 * Counters are cumulative since start (the queue keeps them so), so a failed write loses nothing:
 * the next point carries the totals. `stop()` writes a last point. The timing is the periodic
 * writer's (periodic-writer.ts), shared with the agent's interval counters.
 */
import { hostname } from "node:os";
import type { AuditEventsConfig } from "../config/index.ts";
import type { Clock, EventQueueMetrics, Logger, Service, TimeSeriesWriter } from "../ports.ts";
import { type FieldValue, floatField, integerField, type Point } from "./line-protocol.ts";
import { startPeriodicWriter } from "./periodic-writer.ts";

export type QueueMetricsConfig = AuditEventsConfig["queue"]["queueMetrics"]["timeseriesdb"];

export interface QueueMetricsWriterOptions {
  config: QueueMetricsConfig;
  metrics: () => EventQueueMetrics;
  series: TimeSeriesWriter;
  clock: Clock;
  logger: Logger;
  /** The `host` tag; the machine's host name by default. */
  host?: string;
}

export function toQueueMetricsPoint(
  snapshot: EventQueueMetrics,
  config: QueueMetricsConfig,
  host: string,
  timestampMs: number,
): Point {
  const tags: Record<string, string> = { queue_type: "audit_events", host };
  for (const tag of config.tags) if (tag.name !== "" && tag.value !== "") tags[tag.name] = tag.value;
  const fields: Record<string, FieldValue> = {
    queue_size: integerField(snapshot.waiting),
    queue_max_size: integerField(snapshot.maxSize),
    queue_running: integerField(snapshot.running),
    messages_received: integerField(snapshot.received),
    messages_queued: integerField(snapshot.queued),
    messages_processed: integerField(snapshot.processed),
    messages_failed: integerField(snapshot.failed),
    messages_dropped_total: integerField(snapshot.droppedTotal),
    messages_dropped_rate_limit: integerField(snapshot.droppedRateLimit),
    messages_dropped_queue_full: integerField(snapshot.droppedQueueFull),
    // The audit queue has no message size limit (reference §3), so nothing is dropped for size.
    messages_dropped_size: integerField(0),
    backpressure_active: integerField(snapshot.backpressureActive ? 1 : 0),
    queue_utilization_pct: floatField(snapshot.utilisationPct),
    processing_time_avg_ms: floatField(snapshot.processingTimeAvgMs),
    processing_time_p95_ms: floatField(snapshot.processingTimeP95Ms),
    processing_time_max_ms: floatField(snapshot.processingTimeMaxMs),
  };
  return { measurement: config.measurementName, tags, fields, timestampMs };
}

export function startQueueMetricsWriter(options: QueueMetricsWriterOptions): Service {
  const { config } = options;
  const host = options.host ?? hostname();
  return startPeriodicWriter({
    name: "audit-queue-metrics",
    intervalMs: config.writeFrequency,
    sources: [
      {
        // Cumulative counters: nothing to reset once written.
        take: (nowMs) => ({
          points: [toQueueMetricsPoint(options.metrics(), config, host, nowMs)],
          written() {},
        }),
      },
    ],
    series: options.series,
    clock: options.clock,
    logger: options.logger,
  });
}
