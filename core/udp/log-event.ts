/**
 * Parsed log events, one type per source, derived from the field layouts; the processor adds
 * `user_full` (user-full.ts), `category` (categorise.ts) and, for engine API performance events,
 * `app_name` and `event_activity_source`. The whole object is what `raw_event` and the broker
 * payload carry, so its member names are Butler SOS's (snake_case, as the appenders name them).
 */
import type { Category } from "./categorise.ts";
import {
  ENGINE_LAYOUT,
  type Layout,
  type LayoutRecord,
  PROXY_LAYOUT,
  QIX_PERF_LAYOUT,
  REPOSITORY_LAYOUT,
  SCHEDULER_LAYOUT,
} from "./field-layouts.ts";

interface LogEventExtras {
  user_full: string;
  category: readonly Category[];
}

export type EngineLogEvent = LayoutRecord<typeof ENGINE_LAYOUT> & LogEventExtras;
export type ProxyLogEvent = LayoutRecord<typeof PROXY_LAYOUT> & LogEventExtras;
export type RepositoryLogEvent = LayoutRecord<typeof REPOSITORY_LAYOUT> & LogEventExtras;
export type SchedulerLogEvent = LayoutRecord<typeof SCHEDULER_LAYOUT> & LogEventExtras;
export type QixPerfLogEvent = LayoutRecord<typeof QIX_PERF_LAYOUT> &
  LogEventExtras & {
    /** From the app-name cache when `appNameLookup.enable`, else `''`. */
    app_name: string;
    /** `non-user` when `proxy_session_id` is exactly `0` (the engine's own activity). */
    event_activity_source: "user" | "non-user";
  };

export type LogEvent =
  | EngineLogEvent
  | ProxyLogEvent
  | RepositoryLogEvent
  | SchedulerLogEvent
  | QixPerfLogEvent;
export type LogSource = LogEvent["source"];

/** The `logEvents.source.<key>` switch of each source. */
export type LogSourceKey = "engine" | "proxy" | "repository" | "scheduler" | "engineApiPerf";

export interface LogSourceEntry {
  readonly key: LogSourceKey;
  readonly layout: Layout<LogSource>;
}

export const LOG_SOURCES: readonly LogSourceEntry[] = [
  { key: "engine", layout: ENGINE_LAYOUT },
  { key: "proxy", layout: PROXY_LAYOUT },
  { key: "repository", layout: REPOSITORY_LAYOUT },
  { key: "scheduler", layout: SCHEDULER_LAYOUT },
  { key: "engineApiPerf", layout: QIX_PERF_LAYOUT },
];
