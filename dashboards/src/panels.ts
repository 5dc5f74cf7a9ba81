/**
 * The few panel shapes the dashboards use, with their common settings in one place: a time
 * series (lines, or stacked bars for counts per interval), a stat, a table and a pie chart. Width
 * is in Grafana's 24-column grid; the builder places panels left to right and wraps rows.
 */
import type { Builder, Dataquery } from "@grafana/grafana-foundation-sdk/cog";
import {
  GraphDrawStyle,
  LegendDisplayMode,
  LegendPlacement,
  ReduceDataOptionsBuilder,
  StackingConfigBuilder,
  StackingMode,
  TableSortByFieldStateBuilder,
  VizLegendOptionsBuilder,
} from "@grafana/grafana-foundation-sdk/common";
import { PanelBuilder as PieChartPanel } from "@grafana/grafana-foundation-sdk/piechart";
import { PanelBuilder as StatPanel } from "@grafana/grafana-foundation-sdk/stat";
import { PanelBuilder as TablePanel } from "@grafana/grafana-foundation-sdk/table";
import { PanelBuilder as TimeseriesPanel } from "@grafana/grafana-foundation-sdk/timeseries";

export interface PanelShape {
  readonly title: string;
  /** What the panel shows and where the data comes from, shown under the (i) of the panel. */
  readonly description: string;
  readonly targets: readonly Builder<Dataquery>[];
  /** Grafana unit id (`percent`, `bytes`, `decmbytes`, `short`, `s`…). */
  readonly unit?: string;
  /** Columns of 24 (default 8). */
  readonly width?: number;
  /** Grid rows (default 8). */
  readonly height?: number;
}

function refIds<T extends Builder<Dataquery>>(targets: readonly T[]): T[] {
  return targets.map((target, index) => {
    (target.build() as { refId?: string }).refId = String.fromCharCode(65 + index);
    return target;
  });
}

function place<P extends { span(w: number): P; height(h: number): P }>(panel: P, shape: PanelShape): P {
  return panel.span(shape.width ?? 8).height(shape.height ?? 8);
}

const legend = () =>
  new VizLegendOptionsBuilder()
    .displayMode(LegendDisplayMode.List)
    .placement(LegendPlacement.Bottom)
    .showLegend(true);

/** Lines over time: gauges such as memory, CPU, sessions, queue sizes. */
export function lines(shape: PanelShape): TimeseriesPanel {
  const panel = new TimeseriesPanel().title(shape.title).description(shape.description).legend(legend());
  for (const target of refIds(shape.targets)) panel.withTarget(target);
  if (shape.unit !== undefined) panel.unit(shape.unit);
  return place(panel, shape);
}

/** Stacked bars over time: counts per interval, such as events or drops. */
export function bars(shape: PanelShape): TimeseriesPanel {
  return lines(shape)
    .drawStyle(GraphDrawStyle.Bars)
    .fillOpacity(80)
    .stacking(new StackingConfigBuilder().mode(StackingMode.Normal))
    .min(0);
}

/** One number per series: its last value. */
export function stat(shape: PanelShape): StatPanel {
  const panel = new StatPanel()
    .title(shape.title)
    .description(shape.description)
    .reduceOptions(new ReduceDataOptionsBuilder().calcs(["lastNotNull"]).values(false));
  for (const target of refIds(shape.targets)) panel.withTarget(target);
  if (shape.unit !== undefined) panel.unit(shape.unit);
  return place(panel, shape);
}

/** Rows as the query returns them; `sortBy` names the column sorted on, largest first. */
export function table(shape: PanelShape & { sortBy?: string }): TablePanel {
  const panel = new TablePanel().title(shape.title).description(shape.description);
  for (const target of refIds(shape.targets)) panel.withTarget(target);
  if (shape.unit !== undefined) panel.unit(shape.unit);
  if (shape.sortBy !== undefined)
    panel.sortBy([new TableSortByFieldStateBuilder().displayName(shape.sortBy).desc(true)]);
  return place(panel, shape);
}

/** Shares of a total: one slice per series, its total over the time range. */
export function pie(shape: PanelShape): PieChartPanel {
  const panel = new PieChartPanel()
    .title(shape.title)
    .description(shape.description)
    .reduceOptions(new ReduceDataOptionsBuilder().calcs(["sum"]).values(false));
  for (const target of refIds(shape.targets)) panel.withTarget(target);
  return place(panel, shape);
}
