/**
 * Writes the local audit queue's counters to the time-series database every `writeFrequency` ms
 * (measurement `audit_events_queue` by default; tags and fields as reference audit-ingest §3.3).
 * Counters are cumulative since start (the queue keeps them so), so a failed write loses nothing:
 * the next point carries the totals. `stop()` writes a last point.
 */
import { hostname } from "node:os";
import type { AuditEventsConfig } from "../config/index.ts";
import type { Clock, EventQueueMetrics, Logger, Service, TimerHandle, TimeSeriesWriter } from "../ports.ts";
import { describeError } from "./describe-error.ts";
import type { Point } from "./line-protocol.ts";
import { queueMetricsPoint } from "./queue-metrics-point.ts";

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
  return queueMetricsPoint({
    measurement: config.measurementName,
    queueType: "audit_events",
    host,
    tags: config.tags,
    timestampMs,
    // The audit queue has no message size limit (reference §3), so nothing is dropped for size.
    values: { ...snapshot, droppedSize: 0 },
  });
}

export function startQueueMetricsWriter(options: QueueMetricsWriterOptions): Service {
  const { config, clock, logger, series } = options;
  const host = options.host ?? hostname();
  let timer: TimerHandle | undefined;
  let stopped = false;
  let inFlight: Promise<void> = Promise.resolve();

  const writeOnce = async () => {
    try {
      await series.write([toQueueMetricsPoint(options.metrics(), config, host, clock.now())]);
    } catch (error) {
      logger.error("writing audit queue metrics failed; the next write carries the totals", {
        error: describeError(error),
      });
    }
  };
  const tick = () => {
    timer = undefined;
    if (stopped) return;
    inFlight = inFlight.then(writeOnce).finally(() => {
      if (!stopped) timer = clock.setTimeout(tick, config.writeFrequency);
    });
  };
  timer = clock.setTimeout(tick, config.writeFrequency);

  return {
    async stop() {
      if (stopped) return inFlight;
      stopped = true;
      if (timer !== undefined) clock.clearTimeout(timer);
      inFlight = inFlight.then(writeOnce);
      return inFlight;
    },
  };
}
