/**
 * The InfluxDB dashboard's template variables and the WHERE conditions that use them. Each is a
 * multi-value variable with "All" as `.*`, and each condition a regular-expression match
 * (`=~ /^$var$/`): with All selected it also matches points that lack the tag, so a measurement
 * written without the environment tag still shows, and a selection narrows every panel that has
 * the tag.
 *
 * - environment: the tag `qs_env`, the name Butler SOS's configuration template gives its
 *   environment tag; set it in `serversToMonitor.serverTagsDefinition` (health and sessions) and
 *   in the `tags` lists of user events, log events, event counts and queue metrics.
 * - server: the health measurements' `server_name` tag (`serversToMonitor.servers[].serverName`).
 * - app: the app name tag of user events (`appName`), log events (`app_name`), audit events
 *   (`appName`) and reload-task runs (`app_name`).
 * - tenant: the `tenant` tag of a Qlik Cloud tenant's reload runs and licence points (the
 *   tenant's `name` in `qlikCloud.tenants`). The site's runs and licences have no such tag, so
 *   "All" shows them beside every tenant's, and choosing tenants shows theirs alone.
 */
import type { QueryVariableBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import { templateVariable } from "./template-variable.ts";

export const ENVIRONMENT = `"qs_env" =~ /^$environment$/`;
export const SERVER = `"server_name" =~ /^$server$/`;
/** The tenant condition, on the measurements a Qlik Cloud tenant writes to (reload runs, licences). */
export const TENANT = `"tenant" =~ /^$tenant$/`;
/**
 * The app condition on the tag that names the app in a measurement. `::tag`, because on 1.x
 * `user_events` and `log_event` also have a field of that name, which a bare name would mean:
 * events without the field (engine performance events) would never match.
 */
export const appIs = (tag: "appName" | "app_name") => `"${tag}"::tag =~ /^$app$/`;

export function influxdbVariables(): QueryVariableBuilder[] {
  return [
    templateVariable("environment", "Environment", `SHOW TAG VALUES WITH KEY = "qs_env"`),
    templateVariable(
      "server",
      "Server",
      `SHOW TAG VALUES FROM "cpu" WITH KEY = "server_name" WHERE ${ENVIRONMENT}`,
    ),
    templateVariable(
      "app",
      "App",
      `SHOW TAG VALUES FROM "user_events", "log_event", "audit_event", "reload_task_failed", "reload_task_success" WITH KEY IN ("appName", "app_name") WHERE ${ENVIRONMENT}`,
    ),
    templateVariable(
      "tenant",
      "Qlik Cloud tenant",
      `SHOW TAG VALUES FROM "reload_task_failed", "reload_task_success", "qlik_sense_license" WITH KEY = "tenant" WHERE ${ENVIRONMENT}`,
    ),
  ];
}
