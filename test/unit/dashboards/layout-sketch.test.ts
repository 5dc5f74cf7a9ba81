/**
 * The layout sketch behind the handbook's pictures: every panel of each dashboard drawn at its
 * grid position with its title, and a picture of each dashboard in docs/images/.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { influxdbDashboard } from "../../../dashboards/src/influxdb-dashboard.ts";
import { layoutSketch } from "../../../dashboards/src/layout-sketch.ts";
import { prometheusDashboard } from "../../../dashboards/src/prometheus-dashboard.ts";

const IMAGES = join(import.meta.dirname, "..", "..", "..", "docs", "images");

describe.each([
  ["influxdb", influxdbDashboard()],
  ["prometheus", prometheusDashboard()],
])("the layout sketch of the %s dashboard", (name, dashboard) => {
  it("draws every panel and row at its grid position, with its title", () => {
    const html = layoutSketch(dashboard);
    const panels = dashboard.panels as { title: string; gridPos: { x: number; y: number } }[];
    for (const panel of panels) {
      const escaped = panel.title.replaceAll("&", "&amp;");
      expect(html).toContain(`left:${panel.gridPos.x * 50}px;top:${panel.gridPos.y * 30}px`);
      expect(html).toContain(escaped);
    }
    expect(html.match(/class="(panel|row)"/g)).toHaveLength(panels.length);
  });

  it("has its picture in docs/images (npm run dashboards:pictures)", () => {
    expect(existsSync(join(IMAGES, `dashboard-${name}.png`))).toBe(true);
  });
});
