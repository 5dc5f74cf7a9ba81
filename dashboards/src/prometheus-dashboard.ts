/** The Prometheus dashboard: the same views as the InfluxDB one where a `steward_*` metric exists. */
import { assembleDashboard } from "./assemble-dashboard.ts";
import type { DataSourceInput, ImportableDashboard } from "./grafana-import.ts";
import { prometheusLicenceRows } from "./prometheus-licence-rows.ts";
import { prometheusPlatformRows } from "./prometheus-platform-rows.ts";
import { prometheusStewardRows } from "./prometheus-steward-rows.ts";
import { prometheusTaskRows } from "./prometheus-task-rows.ts";
import { prometheusVariables } from "./prometheus-variables.ts";

export const PROMETHEUS_INPUT: DataSourceInput = {
  name: "DS_PROMETHEUS",
  label: "Prometheus",
  pluginId: "prometheus",
  pluginName: "Prometheus",
};

export function prometheusDashboard(): ImportableDashboard {
  return assembleDashboard({
    uid: "steward-qlik-sense-prometheus",
    title: "Qlik Sense operations (Steward, Prometheus)",
    description:
      "Engine health, sessions, licences, reload tasks, events, UDP intake, audit events, polling and Steward itself, from Steward's scrape endpoint.",
    input: PROMETHEUS_INPUT,
    variables: prometheusVariables(),
    rows: [
      ...prometheusPlatformRows(),
      ...prometheusLicenceRows(),
      ...prometheusTaskRows(),
      ...prometheusStewardRows(),
    ],
  });
}
