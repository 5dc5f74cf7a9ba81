/**
 * The queries of a committed Grafana dashboard (dashboards/grafana/*.json), and running one the
 * way Grafana would against the server it targets: InfluxQL through InfluxDB's `/query`, PromQL
 * through Prometheus's `query_range` (or `query` for an instant query), with the macros and
 * template variables expanded (grafana-macros.ts). "Data" means at least one value that is not
 * null, what a panel needs to draw anything.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type ExpandOptions, expandMacros, intervalMs } from "./grafana-macros.ts";

export const GRAFANA_DIR = join(import.meta.dirname, "..", "..", "dashboards", "grafana");

export interface PanelQuery {
  /** `<panel title> / <refId>`. */
  readonly name: string;
  readonly text: string;
  readonly instant: boolean;
}

interface DashboardJson {
  panels: {
    type: string;
    title: string;
    targets?: { refId: string; query?: string; expr?: string; instant?: boolean }[];
  }[];
  templating: { list: { name: string; query: string; allValue: string }[] };
}

export function readDashboard(file: string): DashboardJson {
  return JSON.parse(readFileSync(join(GRAFANA_DIR, file), "utf8")) as DashboardJson;
}

export function panelQueries(dashboard: DashboardJson): PanelQuery[] {
  return dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({
      name: `${panel.title} / ${target.refId}`,
      text: target.query ?? target.expr ?? "",
      instant: target.instant === true,
    })),
  );
}

/** Every variable at "All" (its allValue), as a dashboard opens. */
export function allSelected(dashboard: DashboardJson): ExpandOptions["variables"] {
  return Object.fromEntries(
    dashboard.templating.list.map((variable) => [
      variable.name,
      { selection: "$__all", allValue: variable.allValue },
    ]),
  );
}

type InfluxAnswer = {
  results: {
    series?: { tags?: Record<string, string>; columns: string[]; values: unknown[][] }[];
    error?: string;
  }[];
};

/** The values the InfluxQL query returns (time column left out); throws on an InfluxDB error. */
export async function influxqlValues(baseUrl: string, database: string, query: string): Promise<unknown[]> {
  return (await influxqlRows(baseUrl, database, query)).flatMap((row) =>
    Object.entries(row)
      .filter(([column]) => column !== "time")
      .map(([, value]) => value),
  );
}

/** The rows the InfluxQL query returns, as column → value; throws on an InfluxDB error. */
export async function influxqlRows(
  baseUrl: string,
  database: string,
  query: string,
): Promise<Record<string, unknown>[]> {
  return (await influxqlSeries(baseUrl, database, query)).flatMap((series) => series.rows);
}

/** Each series the InfluxQL query returns: its GROUP BY tags and its rows; throws on an InfluxDB error. */
export async function influxqlSeries(
  baseUrl: string,
  database: string,
  query: string,
): Promise<{ tags: Record<string, string>; rows: Record<string, unknown>[] }[]> {
  const url = new URL("/query", baseUrl);
  url.searchParams.set("db", database);
  url.searchParams.set("q", query);
  url.searchParams.set("epoch", "ms");
  const answer = (await (await fetch(url)).json()) as InfluxAnswer & { error?: string };
  const result = answer.results?.[0];
  const error = answer.error ?? result?.error;
  if (error !== undefined) throw new Error(`${query}: ${error}`);
  return (result?.series ?? []).map((series) => ({
    tags: series.tags ?? {},
    rows: series.values.map((row) =>
      Object.fromEntries(series.columns.map((column, index) => [column, row[index]])),
    ),
  }));
}

/** The values the PromQL query returns over the range (the instant query: at its end). */
export async function promqlValues(
  api: (path: string, params: Record<string, string>) => Promise<unknown>,
  query: PanelQuery,
  options: ExpandOptions,
): Promise<unknown[]> {
  return (await promqlSeries(api, query, options)).flatMap((series) => series.values);
}

/** Each series the PromQL query returns over the range: its labels and values. */
export async function promqlSeries(
  api: (path: string, params: Record<string, string>) => Promise<unknown>,
  query: PanelQuery,
  options: ExpandOptions,
): Promise<{ labels: Record<string, string>; values: unknown[] }[]> {
  const expr = expandMacros(query.text, options);
  const end = String(options.range.toMs / 1000);
  const data = (
    query.instant
      ? await api("query", { query: expr, time: end })
      : await api("query_range", {
          query: expr,
          start: String(options.range.fromMs / 1000),
          end,
          step: String(intervalMs(options) / 1000),
        })
  ) as {
    result: { metric?: Record<string, string>; value?: [number, string]; values?: [number, string][] }[];
  };
  return data.result.map((series) => ({
    labels: series.metric ?? {},
    values: (series.values ?? (series.value ? [series.value] : [])).map((v) => v[1]),
  }));
}

export const hasData = (values: readonly unknown[]): boolean => values.some((value) => value !== null);
