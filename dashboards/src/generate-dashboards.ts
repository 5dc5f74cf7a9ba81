/**
 * `npm run dashboards`: writes the dashboards' JSON under dashboards/grafana/ from their
 * definitions here. The JSON is committed (it is what people import); a test fails when it
 * differs from what this would write, so run this after changing a definition.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { influxdbDashboard } from "./influxdb-dashboard.ts";
import { prometheusDashboard } from "./prometheus-dashboard.ts";

export const GRAFANA_DIR = join(import.meta.dirname, "..", "grafana");

/** File name → its JSON text, as committed. */
export function renderedDashboards(): Record<string, string> {
  return {
    "steward-qlik-sense-influxdb.json": `${JSON.stringify(influxdbDashboard(), null, 2)}\n`,
    "steward-qlik-sense-prometheus.json": `${JSON.stringify(prometheusDashboard(), null, 2)}\n`,
  };
}

if (process.argv[1] === import.meta.filename) {
  for (const [name, text] of Object.entries(renderedDashboards())) {
    writeFileSync(join(GRAFANA_DIR, name), text);
    console.log(`wrote dashboards/grafana/${name}`);
  }
}
