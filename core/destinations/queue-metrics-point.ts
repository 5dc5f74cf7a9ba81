/**
 * The queue-metrics point shared by every Steward queue that writes one (the audit queue and the
 * UDP queues): one measurement, tags `queue_type`, `host` and the configured tags, and Butler SOS's
 * field names, in one place so dashboards see the same columns whichever queue wrote them.
 *
 * Field types are Butler SOS's on each database version, because a database it wrote refuses a
 * point that changes one: the counts (sizes, message counters, `backpressure_active` as 0/1, and
 * any count a queue adds) follow schemaless-count.ts — floats on 1.x, whose client had no schema
 * for these measurements, integers on 2.x and 3.x; the utilisation and processing times are
 * floats on every version. A queue's own counts (`extraCounts`) are typed like the shared ones.
 */
import type { NameValue, TimeseriesdbVersion } from "../config/index.ts";
import type { EventQueueMetrics } from "../ports.ts";
import { type FieldValue, floatField, type Point } from "../shared/line-protocol.ts";
import { SCHEMALESS_COUNT } from "./schemaless-count.ts";

/**
 * The values behind Butler SOS's fields (camelCase in memory → snake_case in the point): the
 * local queue's metrics, plus the size drops that only a UDP queue has.
 */
export type QueueMetricsValues = EventQueueMetrics & { droppedSize: number };

export interface QueueMetricsPointInput {
  measurement: string;
  queueType: string;
  host: string;
  tags: readonly NameValue[];
  timestampMs: number;
  values: QueueMetricsValues;
  /** Counts a queue has beyond the shared ones (e.g. `rate_limit_current`), appended in order. */
  extraCounts?: Readonly<Record<string, number>>;
}

export type QueueMetricsPointMapper = (input: QueueMetricsPointInput) => Point;

/** The mapper for one database version (`timeseriesdbConfig.version`), chosen once. */
export function queueMetricsPointMapper(version: TimeseriesdbVersion): QueueMetricsPointMapper {
  const count = SCHEMALESS_COUNT[version];
  return function toQueueMetricsPoint(input) {
    const { values } = input;
    const tags: Record<string, string> = { queue_type: input.queueType, host: input.host };
    for (const tag of input.tags) if (tag.name !== "" && tag.value !== "") tags[tag.name] = tag.value;
    const fields: Record<string, FieldValue> = {
      queue_size: count(values.waiting),
      queue_max_size: count(values.maxSize),
      queue_running: count(values.running),
      messages_received: count(values.received),
      messages_queued: count(values.queued),
      messages_processed: count(values.processed),
      messages_failed: count(values.failed),
      messages_dropped_total: count(values.droppedTotal),
      messages_dropped_rate_limit: count(values.droppedRateLimit),
      messages_dropped_queue_full: count(values.droppedQueueFull),
      messages_dropped_size: count(values.droppedSize),
      backpressure_active: count(values.backpressureActive ? 1 : 0),
      queue_utilization_pct: floatField(values.utilisationPct),
      processing_time_avg_ms: floatField(values.processingTimeAvgMs),
      processing_time_p95_ms: floatField(values.processingTimeP95Ms),
      processing_time_max_ms: floatField(values.processingTimeMaxMs),
    };
    for (const [name, value] of Object.entries(input.extraCounts ?? {})) fields[name] = count(value);
    return { measurement: input.measurement, tags, fields, timestampMs: input.timestampMs };
  };
}
