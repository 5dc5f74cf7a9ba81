/**
 * The polling module's only door: code outside core/polling/ imports this file and nothing else
 * of the module, so its files can be rearranged without touching their users. It gives the beat
 * the agent's platform pollers run on and the poller itself, and what an engine health or user
 * session answer becomes at each destination: time-series points, broker messages,
 * observability-platform metrics and scrape gauges, tagged with the server tags.
 */
export { createAnswerTurns } from "./answer-turns.ts";
export { declareHealthGauges } from "./health-gauges.ts";
export { createHealthMessageMapper } from "./health-messages.ts";
export { createHealthObsMetricMapper } from "./health-obs-metrics.ts";
export { createHealthPointMapper } from "./health-points.ts";
export { type PeriodicPoll, startPeriodicPoll } from "./periodic-poll.ts";
export {
  type PlatformPoller,
  type PlatformPollerOptions,
  type PollItems,
  startPlatformPoller,
} from "./platform-poller.ts";
export { serverLabelNames } from "./scrape-labels.ts";
export { serverTags, sessionTags } from "./server-tags.ts";
export { declareSessionGauges } from "./session-gauges.ts";
export { createSessionMessageMapper } from "./session-messages.ts";
export { createSessionObsMetricMapper } from "./session-obs-metrics.ts";
export { createSessionPointMapper } from "./session-points.ts";
export { createUserExclusion } from "./session-users.ts";
