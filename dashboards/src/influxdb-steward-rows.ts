/**
 * The InfluxDB dashboard's rows about Steward's own work: UDP intake (the queue measurements, one
 * point per queue and write interval whose counts are that interval's), event counts, audit
 * events and Steward itself (memory, errors by type).
 *
 * An audit event point has only the fields its event type carries, so no one field counts every
 * event; the subquery selects the `eventType` tag as a column of every point (`* ` keeps one row
 * per point) and the outer query counts that column. The audit queue's counts are cumulative
 * since start, hence `non_negative_difference`. Steward's memory and error points carry no
 * configured tags, so those panels show every Steward writing to the database.
 */
import { RowBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import type { DashboardRow } from "./dashboard-row.ts";
import { appIs, ENVIRONMENT } from "./influxdb-variables.ts";
import { influxql } from "./influxql-query.ts";
import { bars, lines, table } from "./panels.ts";

const UDP_QUEUES = `FROM "user_events_queue", "log_events_queue", "task_events_queue" WHERE $timeFilter AND ${ENVIRONMENT}`;
const PER_INTERVAL = "GROUP BY time($__interval) fill(none)";
const DROPS = [
  `sum("messages_dropped_source") AS "source not allowed"`,
  `sum("messages_dropped_size") AS "too large"`,
  `sum("messages_dropped_rate_limit") AS "rate limit"`,
  `sum("messages_dropped_queue_full") AS "queue full"`,
  `sum("messages_dropped_kernel") AS "dropped by the OS"`,
  `sum("messages_malformed") AS "malformed"`,
  `sum("messages_unknown_marker") AS "unknown marker"`,
  `sum("messages_dropped_by_rule") AS "dropped by rule"`,
].join(", ");
const AUDIT_POINTS = `(SELECT "eventType" AS "event", * FROM "audit_event" WHERE $timeFilter AND ${ENVIRONMENT} AND ${appIs("appName")})`;
const AUDIT_QUEUE = `FROM "audit_events_queue" WHERE $timeFilter AND ${ENVIRONMENT}`;

function udpRow(): DashboardRow {
  return {
    row: new RowBuilder("UDP intake"),
    panels: [
      lines({
        title: "Datagrams received and processed",
        description:
          "UDP datagrams per interval, by queue (measurements user_events_queue, log_events_queue and task_events_queue).",
        targets: [
          influxql(
            `SELECT sum("messages_received") AS "received", sum("messages_processed") AS "processed" ${UDP_QUEUES} ${PER_INTERVAL}`,
          ).alias("$measurement $col"),
        ],
      }),
      bars({
        title: "Datagrams dropped, by reason",
        description:
          "Datagrams not turned into events: refused on arrival (source, size, rate limit, full queue), dropped by the operating system, malformed, of an unknown source, or dropped by a categorisation rule.",
        targets: [influxql(`SELECT ${DROPS} ${UDP_QUEUES} ${PER_INTERVAL}`).alias("$measurement $col")],
      }),
      lines({
        title: "Queue size",
        description: "Datagrams waiting for a processing slot and being processed, at each write.",
        targets: [
          influxql(
            `SELECT max("queue_size") AS "waiting", max("queue_running") AS "running" ${UDP_QUEUES} ${PER_INTERVAL}`,
          ).alias("$measurement $col"),
        ],
      }),
      bars({
        title: "Events by source",
        description: "User and log events per interval by source (measurement event_count).",
        targets: [
          influxql(
            `SELECT sum("counter") AS "events" FROM "event_count" WHERE $timeFilter AND ${ENVIRONMENT} GROUP BY time($__interval), "event_type", "source" fill(none)`,
          ).alias("$tag_event_type $tag_source"),
        ],
        width: 24,
      }),
    ],
  };
}

function auditRow(): DashboardRow {
  return {
    row: new RowBuilder("Audit events"),
    panels: [
      bars({
        title: "Audit events by type",
        description: "Audit events per interval by event type (measurement audit_event).",
        targets: [
          influxql(
            `SELECT count("event") AS "events" FROM ${AUDIT_POINTS} WHERE $timeFilter GROUP BY time($__interval), "eventType" fill(none)`,
          ).alias("$tag_eventType"),
        ],
      }),
      bars({
        title: "Audit events by app",
        description: "Audit events per interval by app name.",
        targets: [
          influxql(
            `SELECT count("event") AS "events" FROM ${AUDIT_POINTS} WHERE $timeFilter GROUP BY time($__interval), "appName" fill(none)`,
          ).alias("$tag_appName"),
        ],
      }),
      table({
        title: "Audit events by user",
        description: "Audit events in the time range by user.",
        targets: [
          influxql(
            `SELECT count("event") AS "events" FROM ${AUDIT_POINTS} WHERE $timeFilter GROUP BY "user"`,
          ).table(),
        ],
        sortBy: "events",
      }),
      bars({
        title: "Audit queue: accepted and refused",
        description:
          "Audit events the local queue accepted, and refused because it was full (503), per interval (measurement audit_events_queue).",
        targets: [
          influxql(
            `SELECT non_negative_difference(last("messages_queued")) AS "accepted", non_negative_difference(last("messages_dropped_queue_full")) AS "refused, queue full" ${AUDIT_QUEUE} GROUP BY time($__interval), "host" fill(none)`,
          ).alias("$tag_host $col"),
        ],
        width: 12,
      }),
      lines({
        title: "Audit queue used",
        description: "How full the audit queue is: the durable log's disk against maxDiskBytes, in percent.",
        targets: [
          influxql(
            `SELECT max("queue_utilization_pct") AS "used" ${AUDIT_QUEUE} GROUP BY time($__interval), "host" fill(none)`,
          ).alias("$tag_host"),
        ],
        unit: "percent",
        width: 12,
      }),
    ],
  };
}

function stewardRow(): DashboardRow {
  return {
    row: new RowBuilder("Steward"),
    panels: [
      lines({
        title: "Steward memory",
        description:
          "Each Steward's memory at each uptime-monitor tick (measurement steward_memory_usage, MB). Uptime is not stored in InfluxDB: see the Prometheus dashboard or the status page.",
        targets: [
          influxql(
            `SELECT mean("process_memory") AS "process (RSS)", mean("heap_used") AS "heap used", mean("heap_total") AS "heap total" FROM "steward_memory_usage" WHERE $timeFilter GROUP BY time($__interval), "instance" fill(none)`,
          ).alias("$tag_instance $col"),
        ],
        unit: "decmbytes",
      }),
      table({
        title: "Steward instances and versions",
        description:
          "Each Steward instance and version that wrote its memory in the time range, with its last RSS.",
        targets: [
          influxql(
            `SELECT last("process_memory") AS "process MB" FROM "steward_memory_usage" WHERE $timeFilter GROUP BY "instance", "version"`,
          ).table(),
        ],
      }),
      bars({
        title: "Errors by type",
        description: "Errors Steward tracked per interval by type (measurement butler_sos_errors).",
        targets: [
          influxql(
            `SELECT sum("error_count") AS "errors" FROM "butler_sos_errors" WHERE $timeFilter GROUP BY time($__interval), "error_type" fill(none)`,
          ).alias("$tag_error_type"),
        ],
      }),
      table({
        title: "Errors by type and server",
        description: "Errors in the time range by type and by the platform server they concern.",
        targets: [
          influxql(
            `SELECT sum("error_count") AS "errors" FROM "butler_sos_errors" WHERE $timeFilter GROUP BY "error_type", "server_name"`,
          ).table(),
        ],
        sortBy: "errors",
        width: 24,
      }),
    ],
  };
}

export function stewardRows(): DashboardRow[] {
  return [udpRow(), auditRow(), stewardRow()];
}
