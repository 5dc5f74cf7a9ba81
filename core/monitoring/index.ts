/**
 * The monitoring module's only door: code outside core/monitoring/ imports this file and nothing
 * else of the module, so its files can be rearranged without touching their users. It gives how
 * Steward watches itself: the status board behind `GET /status`, the error tracker and the error
 * types of failed writes, the refused-items and HTTP-refusal metrics, the event-loop watch of the
 * container health check, the uptime monitor's report and the anonymous telemetry document.
 */
export { type ErrorTracker, nullErrorTracker, startErrorTracker } from "./error-tracker.ts";
export { startEventLoopWatch } from "./event-loop-watch.ts";
export {
  declareHttpRefusedMetric,
  type HttpRefusalReason,
  type HttpRefusedMetric,
} from "./http-refused-metric.ts";
export { addRefusedSource, refusedCounts } from "./refused-metric.ts";
export { createStatusBoard, type StatusBoard, type StatusSection } from "./status-board.ts";
export { telemetryPayload } from "./telemetry-payload.ts";
export { type MemorySample, memoryPoint, uptimeLogLine, uptimeMetricBatch } from "./uptime-report.ts";
export { writeErrorType } from "./write-error-type.ts";
