/**
 * The InfluxDB dashboard's rows about the platform's own events, as Steward receives them over
 * UDP: user events (sessions and connections, browsers, operating systems), log events (warnings
 * and errors by source and by category, the latest ones) and the engine performance monitor
 * (slowest apps, objects and methods; events monitored and not).
 *
 * On InfluxDB 1.x `user_events` has a tag and a field named `userFull`; `"userFull"::field` names
 * the field, which every user event has. Log-event categories are tags named by the
 * categorisation rules; the panel reads `qs_log_category`, the name of the default rule's
 * category.
 */
import { RowBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import type { DashboardRow } from "./dashboard-row.ts";
import { appIs, ENVIRONMENT } from "./influxdb-variables.ts";
import { influxql } from "./influxql-query.ts";
import { bars, pie, stat, table } from "./panels.ts";

const USER_EVENTS = `FROM "user_events" WHERE $timeFilter AND ${ENVIRONMENT} AND ${appIs("appName")}`;
const WARNINGS = `FROM "log_event" WHERE $timeFilter AND ${ENVIRONMENT} AND "level" =~ /^(WARN|ERROR|FATAL)$/`;
const PERFORMANCE = `WHERE $timeFilter AND "source" = 'qseow-qix-perf' AND ${ENVIRONMENT} AND ${appIs("app_name")}`;
const TIMES = `max("process_time") AS "max ms", mean("process_time") AS "mean ms", count("process_time") AS "events"`;

export function eventRows(): DashboardRow[] {
  return [
    {
      row: new RowBuilder("User events"),
      panels: [
        bars({
          title: "Sessions and connections",
          description:
            "User events per interval by action: session start and stop, connection open and close.",
          targets: [
            influxql(
              `SELECT count("userFull"::field) AS "events" ${USER_EVENTS} GROUP BY time($__interval), "event_action" fill(none)`,
            ).alias("$tag_event_action"),
          ],
          width: 12,
        }),
        stat({
          title: "Users",
          description: "Distinct users with a user event in the time range.",
          targets: [influxql(`SELECT count(distinct("userFull"::field)) AS "users" ${USER_EVENTS}`)],
          width: 4,
        }),
        pie({
          title: "Browsers",
          description: "User events by browser (from the user agent).",
          targets: [
            influxql(
              `SELECT count("userFull"::field) AS "events" ${USER_EVENTS} GROUP BY "uaBrowserName"`,
            ).alias("$tag_uaBrowserName"),
          ],
          width: 4,
        }),
        pie({
          title: "Operating systems",
          description: "User events by operating system (from the user agent).",
          targets: [
            influxql(`SELECT count("userFull"::field) AS "events" ${USER_EVENTS} GROUP BY "uaOsName"`).alias(
              "$tag_uaOsName",
            ),
          ],
          width: 4,
        }),
      ],
    },
    {
      row: new RowBuilder("Log events"),
      panels: [
        bars({
          title: "Warnings and errors by source",
          description: "Log events of level WARN, ERROR or FATAL per interval, by source.",
          targets: [
            influxql(
              `SELECT count("message") AS "events" ${WARNINGS} GROUP BY time($__interval), "source" fill(none)`,
            ).alias("$tag_source"),
          ],
          width: 12,
        }),
        bars({
          title: "Warnings and errors by category",
          description:
            "The same events by the category tag qs_log_category (logEvents.categorise rules; unknown when none matched).",
          targets: [
            influxql(
              `SELECT count("message") AS "events" ${WARNINGS} GROUP BY time($__interval), "qs_log_category" fill(none)`,
            ).alias("$tag_qs_log_category"),
          ],
          width: 12,
        }),
        table({
          title: "Latest warnings and errors",
          description: "The 100 latest log events of level WARN, ERROR or FATAL, newest first.",
          targets: [
            influxql(
              `SELECT "level", "source", "host", "subsystem", "message", "exception_message" ${WARNINGS} ORDER BY time DESC LIMIT 100`,
            ).table(),
          ],
          width: 24,
          height: 10,
        }),
      ],
    },
    {
      row: new RowBuilder("Engine performance"),
      panels: [
        table({
          title: "Slowest apps",
          description: "Monitored engine performance events by app: the longest and mean process time (ms).",
          targets: [
            influxql(`SELECT ${TIMES} FROM "log_event" ${PERFORMANCE} GROUP BY "app_id", "app_name"`).table(),
          ],
          sortBy: "max ms",
        }),
        table({
          title: "Slowest objects",
          description: "Monitored engine performance events by app and object.",
          targets: [
            influxql(
              `SELECT ${TIMES} FROM "log_event" ${PERFORMANCE} GROUP BY "app_name", "object_type", "object_id"`,
            ).table(),
          ],
          sortBy: "max ms",
        }),
        table({
          title: "Slowest methods",
          description: "Monitored engine performance events by engine method.",
          targets: [influxql(`SELECT ${TIMES} FROM "log_event" ${PERFORMANCE} GROUP BY "method"`).table()],
          sortBy: "max ms",
        }),
        bars({
          title: "Performance events monitored and not",
          description:
            "Engine performance events per interval that the monitor kept (log_event) and that it did not (rejected_event_count).",
          targets: [
            influxql(
              `SELECT count("process_time") AS "monitored" FROM "log_event" ${PERFORMANCE} GROUP BY time($__interval) fill(none)`,
            ),
            influxql(
              `SELECT sum("counter") AS "not monitored" FROM "rejected_event_count" ${PERFORMANCE} GROUP BY time($__interval) fill(none)`,
            ),
          ],
          width: 12,
        }),
        table({
          title: "Not monitored, by app and method",
          description:
            "Engine performance events the monitor did not keep: how many, and their total process time.",
          targets: [
            influxql(
              `SELECT sum("counter") AS "events", sum("process_time") AS "process time ms" FROM "rejected_event_count" ${PERFORMANCE} GROUP BY "app_name", "method", "object_type"`,
            ).table(),
          ],
          sortBy: "events",
          width: 12,
        }),
      ],
    },
  ];
}
