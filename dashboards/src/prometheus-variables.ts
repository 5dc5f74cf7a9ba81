/**
 * The Prometheus dashboard's template variables and label matchers. Environment is the label
 * `qs_env`: the engine gauges carry it when `serversToMonitor.serverTagsDefinition` names it, and
 * Steward's own metrics get it from the scrape job's target labels (the example prometheus.yml,
 * with `honor_labels: true` so a label Steward sets wins). "All" is `.*`, which also matches a
 * series without the label. There is no app variable: no `steward_*` metric is per app.
 */
import {
  QueryVariableBuilder,
  VariableRefresh,
  VariableSort,
} from "@grafana/grafana-foundation-sdk/dashboard";

/** Matchers for Steward's own metrics. */
export const ENV = `qs_env=~"$environment"`;
/** Matchers for the engine and session gauges (labelled with the server tags). */
export const SERVER = `${ENV}, server_name=~"$server"`;

function variable(name: string, label: string, query: string): QueryVariableBuilder {
  return new QueryVariableBuilder(name)
    .label(label)
    .query(query)
    .multi(true)
    .includeAll(true)
    .allValue(".*")
    .current({ selected: true, text: ["All"], value: ["$__all"] })
    .refresh(VariableRefresh.OnTimeRangeChanged)
    .sort(VariableSort.AlphabeticalAsc);
}

export function prometheusVariables(): QueryVariableBuilder[] {
  return [
    variable("environment", "Environment", "label_values(qs_env)"),
    variable("server", "Server", `label_values(steward_engine_metadata{${ENV}}, server_name)`),
  ];
}
