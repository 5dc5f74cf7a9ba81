/**
 * The Prometheus dashboard's template variables and label matchers. Environment is the label
 * `qs_env`: the engine gauges carry it when `serversToMonitor.serverTagsDefinition` names it, and
 * Steward's own metrics get it from the scrape job's target labels (the example prometheus.yml,
 * with `honor_labels: true` so a label Steward sets wins). "All" is `.*`, which also matches a
 * series without the label. There is no app variable: no `steward_*` metric is per app.
 */
import type { QueryVariableBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import { templateVariable } from "./template-variable.ts";

/** Matchers for Steward's own metrics. */
export const ENV = `qs_env=~"$environment"`;
/** Matchers for the engine and session gauges (labelled with the server tags). */
export const SERVER = `${ENV}, server_name=~"$server"`;

export function prometheusVariables(): QueryVariableBuilder[] {
  return [
    templateVariable("environment", "Environment", "label_values(qs_env)"),
    templateVariable("server", "Server", `label_values(steward_engine_metadata{${ENV}}, server_name)`),
  ];
}
