/**
 * One datagram of each kind the platform sends Steward over UDP, as `steward send-test-events`
 * sends them: a user's session start (proxy), a WARN log line of one service, and a failed reload
 * run (the scheduler's task appender, as the simulated platform sends it). The user and log events
 * are filled in from the field layouts Steward parses them with (core/udp/field-layouts.ts), so
 * they always have the fields Steward expects; the log line is stamped with the time it is made,
 * because InfluxDB refuses points older than its retention.
 */
import { randomUUID } from "node:crypto";
import {
  ENGINE_LAYOUT,
  type Layout,
  PROXY_LAYOUT,
  REPOSITORY_LAYOUT,
  SCHEDULER_LAYOUT,
  USER_SESSION_LAYOUT,
} from "../../core/udp/index.ts";
import { taskDatagram } from "./task-event-sender.ts";

/** The log-event sources whose appender files Steward ships. */
export const SAMPLE_LOG_SOURCES = ["engine", "proxy", "repository", "scheduler"] as const;
export type SampleLogSource = (typeof SAMPLE_LOG_SOURCES)[number];

const LOG_LAYOUTS: Readonly<Record<SampleLogSource, Layout>> = {
  engine: ENGINE_LAYOUT,
  proxy: PROXY_LAYOUT,
  repository: REPOSITORY_LAYOUT,
  scheduler: SCHEDULER_LAYOUT,
};

/** The node, user and app of every sample, as the handbook's examples name them. */
export const SAMPLE_NODE = "qs-node1";
const USER = { user_directory: "LAB", user_id: "goran" } as const;
const APP_PATH = "/app/a421f4a2-c311-4ef4-ba41-fe2e6a2b0d69";

/** `layout`'s marker and fields, each the value named for it or empty. */
function filled(layout: Layout, values: Readonly<Record<string, string>>): string {
  return [layout.marker, ...layout.fields.map((field) => values[field.name] ?? "")].join(";");
}

/** A session start of LAB\goran on qs-node1, as the proxy's appender sends it. */
export function userSessionDatagram(): string {
  return filled(USER_SESSION_LAYOUT, {
    host: SAMPLE_NODE,
    command: "Start session",
    ...USER,
    origin: "AppAccess",
    context: APP_PATH,
    message: "UserAgent: Mozilla/5.0 Firefox/120.0",
  });
}

/** A WARN line of `source`'s log on qs-node1, stamped `atMs`. */
export function logWarningDatagram(source: SampleLogSource, atMs: number): string {
  const service = `${source[0]?.toUpperCase()}${source.slice(1)}`;
  return filled(LOG_LAYOUTS[source], {
    log_row: "1",
    ts_iso: new Date(atMs).toISOString(),
    level: "WARN",
    host: SAMPLE_NODE,
    subsystem: `System.${service}.${service}`,
    windows_user: "svc",
    message: "Test warning from steward send-test-events",
    ...USER,
  });
}

/** A failed run of the simulated platform's Reload Sales task, with a new execution id, logged `atMs`. */
export function failedReloadDatagram(atMs: number): string {
  return taskDatagram("failed", randomUUID(), atMs);
}
