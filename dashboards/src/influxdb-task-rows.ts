/**
 * The InfluxDB dashboard's reload-task row, from what the reload-task events write
 * (`taskEvents.timeseriesdb`): failed runs in `reload_task_failed`, successful ones in
 * `reload_task_success`. Runs are counted as distinct `execution_id`s, so a run that reached
 * Steward twice (two appenders sending the same execution) counts once. The tag that says how a
 * run ended keeps the platform's spelling `task_exeuctionStatusText`: dashboards that move over
 * from Butler filter on it, so Steward writes it that way. A Qlik Cloud tenant's runs go to the
 * same measurements tagged `tenant`; the tenant variable narrows the row to the tenants chosen,
 * and with "All" shows the site's runs (no `tenant` tag) beside theirs.
 */
import { RowBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import type { DashboardRow } from "./dashboard-row.ts";
import { ENVIRONMENT, TENANT } from "./influxdb-variables.ts";
import { influxql } from "./influxql-query.ts";
import { bars, stat, table } from "./panels.ts";

/** The app variable on the task measurements' `app_name` tag (they have no field of that name). */
const APP = `"app_name" =~ /^$app$/`;
const WHERE = `WHERE $timeFilter AND ${ENVIRONMENT} AND ${APP} AND ${TENANT}`;
const RUNS = `count(distinct("execution_id"))`;

export function taskRows(): DashboardRow[] {
  return [
    {
      row: new RowBuilder("Reload tasks"),
      panels: [
        stat({
          title: "Failed reloads",
          description:
            "Reload-task runs that failed in the time range, each execution once (measurement reload_task_failed).",
          targets: [influxql(`SELECT ${RUNS} AS "failed" FROM "reload_task_failed" ${WHERE}`)],
          width: 4,
        }),
        stat({
          title: "Successful reloads per server",
          description:
            "Reload-task runs that succeeded in the time range, by the node that ran them (measurement reload_task_success, tag task_executingNodeName).",
          targets: [
            influxql(
              `SELECT ${RUNS} AS "succeeded" FROM "reload_task_success" ${WHERE} GROUP BY "task_executingNodeName"`,
            ).alias("$tag_task_executingNodeName"),
          ],
          width: 6,
        }),
        bars({
          title: "Reloads per interval",
          description:
            "Reload-task runs that failed and that succeeded, per interval (measurements reload_task_failed and reload_task_success).",
          targets: [
            influxql(
              `SELECT ${RUNS} AS "failed" FROM "reload_task_failed" ${WHERE} GROUP BY time($__interval) fill(none)`,
            ).alias("failed"),
            influxql(
              `SELECT ${RUNS} AS "succeeded" FROM "reload_task_success" ${WHERE} GROUP BY time($__interval) fill(none)`,
            ).alias("succeeded"),
          ],
          width: 14,
        }),
        table({
          title: "Failed reloads, latest first",
          description:
            "The last 50 failed runs: task, app, node, who started it, the platform's message and the script log's tail; a Qlik Cloud run names its tenant, error code and trigger (measurement reload_task_failed).",
          targets: [
            influxql(
              `SELECT "log_timestamp" AS "logged", "tenant", "task_name" AS "task", "app_name" AS "app", "task_executingNodeName" AS "node", "user", "log_message" AS "message", "error_code" AS "error code", "trigger", "reload_log" AS "script log" FROM "reload_task_failed" ${WHERE} ORDER BY time DESC LIMIT 50`,
            ).table(),
          ],
          width: 24,
          height: 10,
        }),
        table({
          title: "Successful reload durations per task",
          description:
            "Per task and app: runs that succeeded, and their longest and mean duration in seconds (measurement reload_task_success, field task_executionDuration_sec).",
          targets: [
            influxql(
              `SELECT ${RUNS} AS "runs", max("task_executionDuration_sec") AS "longest s", mean("task_executionDuration_sec") AS "mean s" FROM "reload_task_success" ${WHERE} GROUP BY "task_name", "app_name"`,
            ).table(),
          ],
          width: 12,
          sortBy: "longest s",
        }),
        bars({
          title: "Successful reloads per app",
          description:
            "Runs that finished with status FinishedSuccess, per interval and app (measurement reload_task_success, tag task_exeuctionStatusText).",
          targets: [
            influxql(
              `SELECT ${RUNS} AS "reloads" FROM "reload_task_success" ${WHERE} AND "task_exeuctionStatusText" = 'FinishedSuccess' GROUP BY time($__interval), "app_name" fill(none)`,
            ).alias("$tag_app_name"),
          ],
          width: 12,
        }),
      ],
    },
  ];
}
