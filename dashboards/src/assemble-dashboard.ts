/**
 * One dashboard from its rows: title, uid, tags, time range, variables, and the panels laid out
 * row by row by the builder; then made importable (grafana-import.ts).
 */
import type { Builder } from "@grafana/grafana-foundation-sdk/cog";
import { DashboardBuilder, type VariableModel } from "@grafana/grafana-foundation-sdk/dashboard";
import type { DashboardRow } from "./dashboard-row.ts";
import { type DataSourceInput, type ImportableDashboard, importable } from "./grafana-import.ts";

export interface DashboardDefinition {
  readonly uid: string;
  readonly title: string;
  readonly description: string;
  readonly input: DataSourceInput;
  readonly variables: readonly Builder<VariableModel>[];
  readonly rows: readonly DashboardRow[];
}

export function assembleDashboard(definition: DashboardDefinition): ImportableDashboard {
  const builder = new DashboardBuilder(definition.title)
    .uid(definition.uid)
    .description(definition.description)
    .tags(["steward", "qlik-sense"])
    .editable()
    .time({ from: "now-6h", to: "now" })
    .refresh("1m")
    .timezone("browser");
  for (const variable of definition.variables) builder.withVariable(variable);
  for (const { row, panels } of definition.rows) {
    builder.withRow(row);
    for (const panel of panels) builder.withPanel(panel);
  }
  return importable(builder.build(), definition.input);
}
