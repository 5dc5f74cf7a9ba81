/**
 * The task-events module's only door: code outside core/task-events/ imports this file and nothing
 * else of the module, so its files can be rearranged without touching their users. It gives the
 * task-event listener's processor (a reload-task datagram decoded, de-duplicated, enriched once
 * through the repository and dispatched), what it asks of the repository, the records of every
 * run (the time-series point and the broker's messages) beside the alert handed to the alert
 * channels, the kept script logs and their retention, and what the status page and the scrape
 * endpoint show of it (the last events, the counts).
 */
export { DEFAULT_ENRICHMENT_OPTIONS, type EnrichmentOptions, enrichTaskEvent } from "./enrich-task-event.ts";
export { executionStatusText } from "./execution-status.ts";
export { createMqttTaskDestination } from "./mqtt-task-destination.ts";
export { createRecentTaskEvents, type RecentTaskEvents } from "./recent-task-events.ts";
export { createScriptLogFiles, type ScriptLogEntry, type ScriptLogFiles } from "./script-log-files.ts";
export { createScriptLogRetention } from "./script-log-retention.ts";
export { createTaskDeduplication } from "./task-deduplication.ts";
export { createTaskEventCounts, type TaskEventCounts } from "./task-event-counts.ts";
export { createTaskEventProcessor } from "./task-event-processor.ts";
export { TASK_MEASUREMENTS, writesTaskPoints } from "./task-points.ts";
export type {
  OwnerReference,
  RepositoryApp,
  RepositoryExecution,
  RepositoryTask,
  TaskRepository,
} from "./task-repository.ts";
export { dispatchTaskRun } from "./task-run-dispatch.ts";
export { createTimeseriesTaskDestination } from "./timeseries-task-destination.ts";
