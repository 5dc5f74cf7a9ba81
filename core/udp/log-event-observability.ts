/**
 * Log events as observability-platform events `qs_logEvent`, as Butler SOS sends them. Only engine,
 * proxy, repository and scheduler events are sent, each when its
 * `sendToObsPlatform.source.<source>.enable` is on and its level (case-insensitive) is `error` or
 * `warn` with that level's flag on; FATAL and engine API performance events are never sent. The
 * attributes are the event's members under their `qs_` names (empty and absent ones left out), then
 * `logEvents.tags`, the static event attributes and `serviceVersion` when enabled.
 */

import type { LogEventsConfig, ObsPlatformConfig } from "../config/index.ts";
import type { NameValue, ObservabilityEvent } from "../ports.ts";
import type { LogEvent, LogSource } from "./log-event.ts";

export const LOG_EVENT_TYPE = "qs_logEvent";

const NONE = { error: false, warn: false };

/** Attribute name → event member, in Butler SOS's order. */
const ATTRIBUTES: readonly (readonly [string, string])[] = [
  ["qs_ts_iso", "ts_iso"],
  ["qs_ts_local", "ts_local"],
  ["qs_log_source", "source"],
  ["qs_log_level", "level"],
  ["qs_host", "host"],
  ["qs_subsystem", "subsystem"],
  ["qs_windows_user", "windows_user"],
  ["qs_message", "message"],
  ["qs_exception_message", "exception_message"],
  ["qs_user_full", "user_full"],
  ["qs_user_directory", "user_directory"],
  ["qs_user_id", "user_id"],
  ["qs_command", "command"],
  ["qs_result_code", "result_code"],
  ["qs_origin", "origin"],
  ["qs_context", "context"],
  ["qs_task_name", "task_name"],
  ["qs_app_name", "app_name"],
  ["qs_task_id", "task_id"],
  ["qs_app_id", "app_id"],
  ["qs_execution_id", "execution_id"],
  ["qs_proxy_session_id", "proxy_session_id"],
  ["qs_engine_ts", "engine_ts"],
  ["qs_process_id", "process_id"],
  ["qs_engine_exe_version", "engine_exe_version"],
  ["qs_server_started", "server_started"],
  ["qs_entry_type", "entry_type"],
  ["qs_session_id", "session_id"],
];

/** The event's observability event, or undefined when its source or level is not selected. */
export type LogEventObservabilityMapper = (
  event: LogEvent,
  timestampMs: number,
) => ObservabilityEvent | undefined;

export interface LogEventObservabilityOptions {
  readonly logEvents: LogEventsConfig;
  readonly obsPlatform: Pick<ObsPlatformConfig, "event">;
  readonly serviceVersion: string;
}

export function createLogEventObservabilityMapper(
  options: LogEventObservabilityOptions,
): LogEventObservabilityMapper {
  const sources = options.logEvents.sendToObsPlatform.source;
  const levels = new Map<LogSource, { error: boolean; warn: boolean }>([
    ["qseow-engine", sources.engine.enable ? sources.engine.logLevel : NONE],
    ["qseow-proxy", sources.proxy.enable ? sources.proxy.logLevel : NONE],
    ["qseow-repository", sources.repository.enable ? sources.repository.logLevel : NONE],
    ["qseow-scheduler", sources.scheduler.enable ? sources.scheduler.logLevel : NONE],
  ]);
  const attribute = options.obsPlatform.event.attribute;
  const trailing: readonly NameValue[] = [
    ...options.logEvents.tags,
    ...attribute.static,
    ...(attribute.dynamic.serviceVersion.enable
      ? [{ name: "serviceVersion", value: options.serviceVersion }]
      : []),
  ];

  return function toLogObservabilityEvent(event, timestampMs) {
    const selected = levels.get(event.source);
    if (selected === undefined) return undefined;
    const level = event.level.toLowerCase();
    if (!((level === "error" && selected.error) || (level === "warn" && selected.warn))) return undefined;
    const values = event as unknown as Readonly<Record<string, unknown>>;
    const attributes: NameValue[] = [];
    for (const [name, member] of ATTRIBUTES) {
      const value = values[member];
      if (typeof value === "string" && value !== "") attributes.push({ name, value });
    }
    for (const extra of trailing) attributes.push(extra);
    return { eventType: LOG_EVENT_TYPE, timestamp: timestampMs, attributes };
  };
}
