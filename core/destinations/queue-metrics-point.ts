/**
 * The queue-metrics point shared by every Steward queue that writes one (the audit queue,
 * reference audit-ingest §3.3; the UDP queues, reference agent §3.1 and §8.1.8): one measurement,
 * tags `queue_type`, `host` and the configured tags, and the reference's field names and types,
 * in one place so dashboards see the same columns whichever queue wrote them.
 */
import type { NameValue } from "../config/index.ts";
import type { EventQueueMetrics } from "../ports.ts";
import { type FieldValue, floatField, integerField, type Point } from "./line-protocol.ts";

/**
 * The values behind the reference's fields (camelCase in memory → snake_case in the point): the
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
  /** Fields a queue has beyond the shared ones (e.g. `rate_limit_current`), appended in order. */
  extraFields?: Readonly<Record<string, FieldValue>>;
}

export function queueMetricsPoint(input: QueueMetricsPointInput): Point {
  const { values } = input;
  const tags: Record<string, string> = { queue_type: input.queueType, host: input.host };
  for (const tag of input.tags) if (tag.name !== "" && tag.value !== "") tags[tag.name] = tag.value;
  const fields: Record<string, FieldValue> = {
    queue_size: integerField(values.waiting),
    queue_max_size: integerField(values.maxSize),
    queue_running: integerField(values.running),
    messages_received: integerField(values.received),
    messages_queued: integerField(values.queued),
    messages_processed: integerField(values.processed),
    messages_failed: integerField(values.failed),
    messages_dropped_total: integerField(values.droppedTotal),
    messages_dropped_rate_limit: integerField(values.droppedRateLimit),
    messages_dropped_queue_full: integerField(values.droppedQueueFull),
    messages_dropped_size: integerField(values.droppedSize),
    backpressure_active: integerField(values.backpressureActive ? 1 : 0),
    queue_utilization_pct: floatField(values.utilisationPct),
    processing_time_avg_ms: floatField(values.processingTimeAvgMs),
    processing_time_p95_ms: floatField(values.processingTimeP95Ms),
    processing_time_max_ms: floatField(values.processingTimeMaxMs),
    ...input.extraFields,
  };
  return { measurement: input.measurement, tags, fields, timestampMs: input.timestampMs };
}
