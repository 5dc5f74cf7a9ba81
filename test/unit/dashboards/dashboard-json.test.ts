/**
 * The dashboards' committed JSON: what `npm run dashboards` writes from the definitions (so an
 * edited definition cannot ship with stale JSON), importable into Grafana with the data source
 * picked at import (`__inputs`, no site's data source uid), unique panel ids, and every panel
 * with a query on that data source.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GRAFANA_DIR, renderedDashboards } from "../../../dashboards/src/generate-dashboards.ts";

interface Json {
  [key: string]: unknown;
}

const committed = (name: string) => readFileSync(join(GRAFANA_DIR, name), "utf8");
const rendered = renderedDashboards();
const names = Object.keys(rendered);

/** Every `datasource` object anywhere in the dashboard. */
function dataSources(value: unknown, found: Json[] = []): Json[] {
  if (Array.isArray(value)) for (const item of value) dataSources(item, found);
  else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "datasource" && inner !== null && typeof inner === "object") found.push(inner as Json);
      else dataSources(inner, found);
    }
  }
  return found;
}

describe.each(names)("dashboards/grafana/%s", (name) => {
  const dashboard = JSON.parse(committed(name)) as Json & {
    __inputs: { name: string; type: string; pluginId: string }[];
    panels: { id: number; type: string; title: string; targets?: unknown[] }[];
    templating: { list: { name: string }[] };
  };

  it("is what npm run dashboards writes from the definitions", () => {
    expect(committed(name)).toBe(rendered[name]);
  });

  it("asks for one data source at import, and every panel, query and variable uses it", () => {
    expect(dashboard.__inputs).toHaveLength(1);
    const [input] = dashboard.__inputs;
    expect(input).toMatchObject({ type: "datasource" });
    const refs = dataSources(dashboard);
    expect(refs.length).toBeGreaterThan(dashboard.panels.length);
    for (const ref of refs) expect(ref).toEqual({ type: input?.pluginId, uid: `\${${input?.name}}` });
  });

  it("has unique panel ids and titles, and a query in every panel that is not a row", () => {
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
    const titles = dashboard.panels.map((panel) => panel.title);
    expect(new Set(titles).size).toBe(titles.length);
    const empty = dashboard.panels.filter(
      (panel) => panel.type !== "row" && (panel.targets ?? []).length === 0,
    );
    expect(empty.map((panel) => panel.title)).toEqual([]);
  });

  it("has the environment and server variables, and no dashboard id of another site", () => {
    expect(dashboard.templating.list.map((variable) => variable.name)).toEqual(
      expect.arrayContaining(["environment", "server"]),
    );
    expect(dashboard).not.toHaveProperty("id");
    expect(dashboard.uid).toMatch(/^steward-/);
  });
});
