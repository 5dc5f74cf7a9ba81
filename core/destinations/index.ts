/**
 * The destinations module's only door: code outside core/destinations/ imports this file and
 * nothing else of the module, so its files can be rearranged without touching their users. It
 * gives the audit destinations as the configuration selects them and the local and cloud
 * consumers that feed them, the item batcher every destination of the agent writes through, the
 * one write path and refusal rule of the time-series database (a refusal is not an outage), the
 * periodic writers of counters and queue metrics, and what each destination did with what it
 * was given (its stats and their scrape metric).
 */
export { UnwrittenEventsError } from "./batcher.ts";
export { consumeEvents, refusalTallies } from "./consume-events.ts";
export { ensuringDatabase } from "./database-ensuring-series.ts";
export { DatabaseSetupError } from "./database-setup-error.ts";
export {
  type DestinationStats,
  type DestinationStatsSource,
  declareDestinationMetrics,
} from "./destination-stats.ts";
export {
  BatcherStoppedError,
  BufferFullError,
  type ItemBatch,
  type Refusal,
  startItemBatcher,
  UnwrittenItemsError,
} from "./item-batcher.ts";
export { ObjectKeyError, validateObjectKey } from "./object-key.ts";
export {
  type PeriodicWriter,
  periodicWriterDestinationStats,
  startPeriodicWriter,
} from "./periodic-writer.ts";
export { queueMetricsPointMapper } from "./queue-metrics-point.ts";
export { startQueueMetricsWriter } from "./queue-metrics-writer.ts";
export { SCHEMALESS_COUNT } from "./schemaless-count.ts";
export {
  type DestinationAdapters,
  type SelectedDestination,
  selectDestinations,
  selectedDestinationTypes,
} from "./select-destinations.ts";
export {
  type AuditDestinations,
  createAcceptedEventHandler,
  startAuditDestinations,
} from "./start-audit-destinations.ts";
export { REFUSAL_DETAIL_CHARS, type RefusalReason, type TimeseriesRefusal } from "./timeseries-refusal.ts";
export { TimeseriesWriteError } from "./timeseries-write-error.ts";
export { writeAcceptingRefusals } from "./write-accepting-refusals.ts";
export { writeWithinSizeLimit } from "./write-within-size-limit.ts";
