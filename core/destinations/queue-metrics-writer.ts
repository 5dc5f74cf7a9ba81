/**
 * Writes the local audit queue's counters to the time-series database every `writeFrequency` ms
 * (measurement `audit_events_queue` by default; tags and fields as Butler SOS writes them).
 * Counters are cumulative since start (the queue keeps them so), so a failed write loses nothing:
 * the next point carries the totals. `stop()` writes a last point. The timing is the periodic
 * writer's (periodic-writer.ts), shared with the agent's interval counters.
 */
import { hostname } from "node:os";
import type { AuditEventsConfig, TimeseriesdbVersion } from "../config/index.ts";
import type { Clock, EventQueueMetrics, Logger, TimeseriesClient } from "../ports.ts";
import { type PeriodicWriter, startPeriodicWriter } from "./periodic-writer.ts";
import { queueMetricsPointMapper } from "./queue-metrics-point.ts";

export type QueueMetricsConfig = AuditEventsConfig["queue"]["queueMetrics"]["timeseriesdb"];

export interface QueueMetricsWriterOptions {
  config: QueueMetricsConfig;
  metrics: () => EventQueueMetrics;
  series: TimeseriesClient;
  /** `timeseriesdbConfig.version` of the database `series` writes to (it decides field types). */
  version: TimeseriesdbVersion;
  clock: Clock;
  logger: Logger;
  /** The `host` tag; the machine's host name by default. */
  host?: string;
}

export function startQueueMetricsWriter(options: QueueMetricsWriterOptions): PeriodicWriter {
  const { config } = options;
  const host = options.host ?? hostname();
  const toPoint = queueMetricsPointMapper(options.version);
  return startPeriodicWriter({
    name: "audit-queue-metrics",
    intervalMs: config.writeFrequency,
    sources: [
      {
        // Cumulative counters: nothing to reset once written.
        take: (nowMs) => ({
          points: [
            toPoint({
              measurement: config.measurementName,
              queueType: "audit_events",
              host,
              tags: config.tags,
              timestampMs: nowMs,
              // `messages_dropped_size`: events larger than the queue can ever hold (the durable
              // log's whole budget, the cloud queue's message size), answered 413.
              values: options.metrics(),
            }),
          ],
          written() {},
        }),
      },
    ],
    series: options.series,
    clock: options.clock,
    logger: options.logger,
  });
}
