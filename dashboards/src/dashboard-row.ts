/** A row of a dashboard and the panels under it, in layout order. */
import type { Builder } from "@grafana/grafana-foundation-sdk/cog";
import type { Panel, RowBuilder } from "@grafana/grafana-foundation-sdk/dashboard";

export interface DashboardRow {
  readonly row: RowBuilder;
  readonly panels: readonly Builder<Panel>[];
}
