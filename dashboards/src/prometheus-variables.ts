/**
 * The Prometheus dashboard's template variables and label matchers. Environment is the label
 * `qs_env`: the engine gauges carry it when `serversToMonitor.serverTagsDefinition` names it, and
 * Steward's own metrics get it from the scrape job's target labels (the example prometheus.yml,
 * with `honor_labels: true` so a label Steward sets wins). "All" is `.*`, which also matches a
 * series without the label. There is no app variable: no `steward_*` metric is per app. Tenant is
 * the label `tenant` of the Qlik Cloud inputs' `steward_cloud_*` metrics and of a tenant's
 * licence gauges: the site's series have none, so "All" shows them beside every tenant's.
 */
import type { QueryVariableBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import { templateVariable } from "./template-variable.ts";

/** Matchers for Steward's own metrics. */
export const ENV = `qs_env=~"$environment"`;
/** Matchers for the engine and session gauges (labelled with the server tags). */
export const SERVER = `${ENV}, server_name=~"$server"`;
/** Matchers for the series a Qlik Cloud tenant has (and the site's like them, without the label). */
export const TENANT = `${ENV}, tenant=~"$tenant"`;

export function prometheusVariables(): QueryVariableBuilder[] {
  return [
    templateVariable("environment", "Environment", "label_values(qs_env)"),
    templateVariable("server", "Server", `label_values(steward_engine_metadata{${ENV}}, server_name)`),
    templateVariable(
      "tenant",
      "Qlik Cloud tenant",
      `label_values(steward_cloud_events_total{${ENV}}, tenant)`,
    ),
  ];
}
