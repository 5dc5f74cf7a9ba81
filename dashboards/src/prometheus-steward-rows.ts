/**
 * The Prometheus dashboard's rows about Steward's own work: UDP intake, audit events, platform
 * polling, and Steward itself (up, uptime, memory, event loop, destinations, heartbeats). Counters
 * are shown as rates or as increases per interval; they restart from zero when Steward does.
 */
import { RowBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import type { DashboardRow } from "./dashboard-row.ts";
import { bars, lines, stat } from "./panels.ts";
import { promql } from "./prometheus-platform-rows.ts";
import { ENV } from "./prometheus-variables.ts";

const rate = (selector: string, by: string) => `sum by (${by}) (rate(${selector}[$__rate_interval]))`;
const increase = (selector: string, by: string) => `sum by (${by}) (increase(${selector}[$__rate_interval]))`;

function intakeRow(): DashboardRow {
  return {
    row: new RowBuilder("UDP intake and audit events"),
    panels: [
      lines({
        title: "Datagrams received and processed, per second",
        description: "UDP datagrams per second by queue: received, and processed into events.",
        targets: [
          promql(
            rate(`steward_udp_messages_total{${ENV}, outcome=~"received|processed"}`, "queue, outcome"),
            "{{queue}} {{outcome}}",
          ),
        ],
      }),
      bars({
        title: "Datagrams dropped, by reason",
        description:
          "Datagrams not turned into events, per interval: dropped_* on arrival or by the operating system, malformed, unknown_marker, dropped_by_rule, failed.",
        targets: [
          promql(
            increase(
              `steward_udp_messages_total{${ENV}, outcome=~"dropped_.+|malformed|unknown_marker|failed"}`,
              "queue, outcome",
            ),
            "{{queue}} {{outcome}}",
          ),
        ],
      }),
      lines({
        title: "UDP queue size",
        description: "Datagrams waiting for a processing slot.",
        targets: [promql(`steward_udp_queue_size{${ENV}}`, "{{instance}} {{queue}}")],
      }),
      bars({
        title: "Audit events by outcome",
        description:
          "Audit events through the local queue per interval: received, accepted (202), dropped (429, 503, 413), processed, failed.",
        targets: [promql(increase(`steward_audit_events_total{${ENV}}`, "outcome"), "{{outcome}}")],
      }),
      lines({
        title: "Audit queue used",
        description:
          "How full the audit queue is: the durable log's disk against maxDiskBytes (the in-memory queue: maxSize).",
        targets: [promql(`100 * steward_audit_queue_utilisation_ratio{${ENV}}`, "{{instance}}")],
        unit: "percent",
      }),
      bars({
        title: "Requests refused by the rate limit",
        description: "HTTP requests the per-client rate limit refused with 429, per interval, by listener.",
        targets: [promql(increase(`steward_http_rate_limited_total{${ENV}}`, "listener"), "{{listener}}")],
      }),
    ],
  };
}

function pollingRow(): DashboardRow {
  return {
    row: new RowBuilder("Platform polling"),
    panels: [
      bars({
        title: "Health and session calls",
        description: "Calls of the health and session pollers per interval, by outcome.",
        targets: [
          promql(increase(`steward_health_polls_total{${ENV}}`, "outcome"), "health {{outcome}}"),
          promql(increase(`steward_sessions_polls_total{${ENV}}`, "outcome"), "sessions {{outcome}}"),
        ],
        width: 12,
      }),
      lines({
        title: "Polling round duration",
        description: "How long the last health and session rounds took.",
        targets: [
          promql(`steward_health_round_duration_seconds{${ENV}}`, "{{instance}} health"),
          promql(`steward_sessions_round_duration_seconds{${ENV}}`, "{{instance}} sessions"),
        ],
        unit: "s",
        width: 12,
      }),
    ],
  };
}

function stewardRow(): DashboardRow {
  return {
    row: new RowBuilder("Steward"),
    panels: [
      stat({
        title: "Up",
        description: "1 while Prometheus can scrape Steward (job steward).",
        targets: [promql(`up{job="steward", ${ENV}}`, "{{instance}}")],
        width: 4,
      }),
      stat({
        title: "Uptime",
        description: "Time since Steward's process started.",
        targets: [promql(`time() - process_start_time_seconds{${ENV}}`, "{{instance}}")],
        unit: "s",
        width: 4,
      }),
      lines({
        title: "Steward memory",
        description: "Resident memory and V8 heap used of the Steward process.",
        targets: [
          promql(`process_resident_memory_bytes{${ENV}}`, "{{instance}} resident"),
          promql(`nodejs_heap_size_used_bytes{${ENV}}`, "{{instance}} heap used"),
        ],
        unit: "bytes",
      }),
      lines({
        title: "Event loop lag (p99)",
        description: "The 99th percentile of the event loop's delay: work waits this long for its turn.",
        targets: [promql(`nodejs_eventloop_lag_p99_seconds{${ENV}}`, "{{instance}}")],
        unit: "s",
      }),
      bars({
        title: "Destination write errors",
        description:
          "Failed write requests of the agent's destinations per interval (retried, refused or dropped).",
        targets: [
          promql(
            increase(`steward_destination_write_errors_total{${ENV}}`, "destination"),
            "{{destination}}",
          ),
        ],
      }),
      bars({
        title: "Items refused by destinations",
        description: "Items a destination refused as data (they are not retried), per interval, by reason.",
        targets: [
          promql(
            increase(`steward_destination_refused_total{${ENV}}`, "destination, reason"),
            "{{destination}} {{reason}}",
          ),
        ],
      }),
      bars({
        title: "Heartbeats",
        description: "Heartbeat calls per interval, by outcome.",
        targets: [promql(increase(`steward_heartbeats_total{${ENV}}`, "outcome"), "{{outcome}}")],
      }),
    ],
  };
}

export function prometheusStewardRows(): DashboardRow[] {
  return [intakeRow(), pollingRow(), stewardRow()];
}
