/**
 * The audit pipeline's scrape metrics: `steward_audit_events_total{outcome}`, read from the local
 * audit queue's cumulative counters at each scrape (pull-based: ingest pays nothing per event for
 * it), and `steward_audit_queue_utilisation_ratio`, how full the queue is, so that an alert can
 * warn before a full queue makes ingest refuse events. Only events that passed the ingest API's own checks reach the queue:
 * requests it refuses itself (authentication, validation, its per-client rate limit) are not
 * counted here.
 */
import type { EventQueueMetrics, MetricsRegistry } from "../ports.ts";

/** The counters among the queue's metrics (the others are gauges and a flag). */
type QueueCounter =
  | "received"
  | "queued"
  | "processed"
  | "failed"
  | "droppedRateLimit"
  | "droppedQueueFull"
  | "droppedSize";

/**
 * `outcome` label values and the queue counter behind each. Each valid event is counted once
 * as `received` and once more as one of `accepted`, `dropped_rate_limit`, `dropped_queue_full` or
 * `dropped_size`;
 * each accepted event later as one of `processed` or `failed` (until then it waits or runs).
 *
 * - `received`: valid events handed to the queue.
 * - `accepted`: events the queue took; the ingest API answered 202 for each.
 * - `processed`: accepted events handed to every audit destination (buffered there for its next
 *   write; a failing write is the destination's own error, not counted here).
 * - `failed`: accepted events a destination refused (the handler threw; logged at ERROR).
 * - `dropped_rate_limit`: events refused by the queue's own limit, `auditEvents.queue.rateLimit`
 *   (answered 429).
 * - `dropped_queue_full`: events refused because the queue was full: `auditEvents.queue.maxSize`
 *   events waiting, or the durable log at `auditEvents.queue.maxDiskBytes` (answered 503).
 * - `dropped_size`: events larger than the queue can ever hold: the durable log's whole
 *   `maxDiskBytes`, or the cloud queue's message size (answered 413).
 */
export const AUDIT_EVENT_OUTCOMES = {
  received: "received",
  accepted: "queued",
  processed: "processed",
  failed: "failed",
  dropped_rate_limit: "droppedRateLimit",
  dropped_queue_full: "droppedQueueFull",
  dropped_size: "droppedSize",
} as const satisfies Record<string, QueueCounter>;

export type AuditEventOutcome = keyof typeof AUDIT_EVENT_OUTCOMES;

/**
 * Declares `steward_audit_events_total` and `steward_audit_queue_utilisation_ratio`, reading
 * `metrics` (the audit queue's) at each scrape.
 */
export function declareAuditEventMetrics(
  registry: MetricsRegistry,
  metrics: () => Pick<EventQueueMetrics, QueueCounter | "utilisationPct">,
): void {
  const outcomes = Object.entries(AUDIT_EVENT_OUTCOMES) as Array<[AuditEventOutcome, QueueCounter]>;
  registry.counter({
    name: "steward_audit_events_total",
    help: "Audit events through the local audit queue since start, by outcome (received, then accepted or dropped; accepted, then processed or failed)",
    labelNames: ["outcome"],
    collect() {
      const current = metrics();
      return outcomes.map(([outcome, key]) => ({ labels: { outcome }, value: current[key] }));
    },
  });
  registry.gauge({
    name: "steward_audit_queue_utilisation_ratio",
    help: "How full the local audit queue is, 0 to 1: the durable log's bytes on disk against auditEvents.queue.maxDiskBytes (with durable: false, waiting events against maxSize); at 1 ingest answers 503",
    labelNames: [],
    collect: () => [{ labels: {}, value: metrics().utilisationPct / 100 }],
  });
}
