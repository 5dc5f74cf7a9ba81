/**
 * `npm run dashboards:pictures`: the layout sketch of each dashboard (layout-sketch.ts),
 * photographed in headless Chromium into docs/images/, for the handbook. Needs Debian's chromium.
 */
import { join } from "node:path";
import { chromium } from "playwright-core";
import { influxdbDashboard } from "./influxdb-dashboard.ts";
import { layoutSketch } from "./layout-sketch.ts";
import { prometheusDashboard } from "./prometheus-dashboard.ts";

const IMAGES_DIR = join(import.meta.dirname, "..", "..", "docs", "images");

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1240, height: 800 } });
  for (const [name, dashboard] of [
    ["dashboard-influxdb.png", influxdbDashboard()],
    ["dashboard-prometheus.png", prometheusDashboard()],
  ] as const) {
    await page.setContent(layoutSketch(dashboard));
    await page.screenshot({ path: join(IMAGES_DIR, name), fullPage: true });
    console.log(`wrote docs/images/${name}`);
  }
} finally {
  await browser.close();
}
