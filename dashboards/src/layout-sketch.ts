/**
 * A sketch of a dashboard's layout as an HTML page: each panel a box at its grid position (24
 * columns; one grid row is 30 px, as Grafana draws it) with its title, kind and first query, each
 * row a band. Grafana cannot run here, so this is the picture of each dashboard the handbook shows.
 */
import type { ImportableDashboard } from "./grafana-import.ts";

const COLUMN_PX = 50;
const ROW_PX = 30;

interface SketchPanel {
  type: string;
  title?: string;
  gridPos?: { x: number; y: number; w: number; h: number };
  targets?: { query?: string; expr?: string }[];
}

const escapeHtml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

const KIND: Record<string, string> = {
  timeseries: "time series",
  stat: "stat",
  table: "table",
  piechart: "pie chart",
};

export function layoutSketch(dashboard: ImportableDashboard): string {
  const panels = (dashboard.panels ?? []) as SketchPanel[];
  const bottom = Math.max(...panels.map((p) => (p.gridPos?.y ?? 0) + (p.gridPos?.h ?? 0)));
  const boxes = panels.map((panel) => {
    const { x, y, w, h } = panel.gridPos ?? { x: 0, y: 0, w: 24, h: 1 };
    const style = `left:${x * COLUMN_PX}px;top:${y * ROW_PX}px;width:${w * COLUMN_PX - 6}px;height:${h * ROW_PX - 6}px`;
    const title = escapeHtml(panel.title ?? "");
    if (panel.type === "row") return `<div class="row" style="${style}">${title}</div>`;
    const first = panel.targets?.[0];
    const query = escapeHtml(first?.query ?? first?.expr ?? "");
    const more = (panel.targets?.length ?? 0) > 1 ? ` (+${(panel.targets?.length ?? 1) - 1} more)` : "";
    return `<div class="panel" style="${style}"><b>${title}</b><i>${KIND[panel.type] ?? panel.type}${more}</i><code>${query}</code></div>`;
  });
  return `<!doctype html><html><head><meta charset="utf-8"><style>
body{margin:0;background:#111217;font:13px sans-serif;color:#ccccdc}
h1{font-size:18px;margin:12px 16px}
.grid{position:relative;margin:0 16px 16px;width:${24 * COLUMN_PX}px;height:${bottom * ROW_PX}px}
.row{position:absolute;font-weight:bold;font-size:15px;border-bottom:1px solid #444;padding-top:6px}
.panel{position:absolute;background:#181b1f;border:1px solid #2c3235;border-radius:3px;padding:6px;overflow:hidden;display:flex;flex-direction:column;gap:4px}
.panel b{color:#fff}.panel i{color:#8e8e9a}
.panel code{display:block;font-size:10px;line-height:1.4;color:#6e9fff;white-space:pre-wrap;word-break:break-all;overflow:hidden}
</style></head><body><h1>${escapeHtml(dashboard.title ?? "")}</h1><div class="grid">${boxes.join("")}</div></body></html>`;
}
