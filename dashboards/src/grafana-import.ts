/**
 * Turns a built dashboard into the JSON a person imports into Grafana 10 or newer: one data source
 * input in `__inputs` (Grafana asks for the data source at import and replaces `${DS_…}` with the
 * chosen one's uid, so no site's uid is baked in), `__requires` naming Grafana, the data source
 * plugin and each panel type, every panel, query and template variable pointed at that input, and
 * panel ids numbered 1, 2, 3… in layout order (the builder leaves them unset, and Grafana needs
 * them unique within a dashboard for links and editing).
 */
import type { Dashboard, DataSourceRef, Panel, RowPanel } from "@grafana/grafana-foundation-sdk/dashboard";

export interface DataSourceInput {
  /** `DS_INFLUXDB`: the placeholder `${DS_INFLUXDB}` stands for the chosen data source's uid. */
  readonly name: string;
  readonly label: string;
  readonly pluginId: "influxdb" | "prometheus";
  readonly pluginName: string;
}

/** The oldest Grafana the dashboards are written for (the SDK's schema is 10.1's). */
export const GRAFANA_VERSION = "10.1.0";

export type ImportableDashboard = Dashboard & {
  __inputs: unknown[];
  __requires: unknown[];
};

/** The data source reference every panel and query of a dashboard with this input uses. */
export function dataSourceRef(input: DataSourceInput): DataSourceRef {
  return { type: input.pluginId, uid: `\${${input.name}}` };
}

export function importable(dashboard: Dashboard, input: DataSourceInput): ImportableDashboard {
  const ref = dataSourceRef(input);
  const panels = (dashboard.panels ?? []) as Array<Panel | RowPanel>;
  let nextId = 1;
  const panelTypes = new Set<string>();
  for (const panel of panels) {
    panel.id = nextId++;
    panel.datasource = ref;
    if (panel.type === "row") continue;
    const regular = panel as Panel;
    panelTypes.add(regular.type);
    for (const target of regular.targets ?? []) (target as { datasource?: DataSourceRef }).datasource = ref;
  }
  for (const variable of dashboard.templating?.list ?? []) {
    // The builder gives every variable the same placeholder id; Grafana keys its variables by id.
    variable.id = variable.name;
    if (variable.type === "query") variable.datasource = ref;
  }
  const { id: _id, ...rest } = dashboard;
  return {
    __inputs: [
      {
        name: input.name,
        label: input.label,
        description: "",
        type: "datasource",
        pluginId: input.pluginId,
        pluginName: input.pluginName,
      },
    ],
    __requires: [
      { type: "grafana", id: "grafana", name: "Grafana", version: GRAFANA_VERSION },
      { type: "datasource", id: input.pluginId, name: input.pluginName, version: "1.0.0" },
      ...[...panelTypes].sort().map((type) => ({ type: "panel", id: type, name: type, version: "" })),
    ],
    ...rest,
    panels,
  };
}
