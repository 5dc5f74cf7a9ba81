import { describe, expect, it } from "vitest";
import { createHealthObsMetricMapper } from "../../../../core/polling/health-obs-metrics.ts";
import { HEALTH, obsPlatform, TAGS } from "./polling-fixtures.ts";

const AT = Date.UTC(2026, 2, 1, 8);
const GROUPS = ["memory", "cpu", "calls", "selections", "sessions", "users", "saturated"] as const;

/** Every group off, then the ones named on. */
function metricConfig(on: { engine?: readonly string[]; docCount?: boolean; cache?: boolean }) {
  const engine = Object.fromEntries(GROUPS.map((g) => [g, { enable: on.engine?.includes(g) ?? false }]));
  return obsPlatform({
    metric: {
      dynamic: {
        engine,
        apps: { docCount: { enable: on.docCount ?? false } },
        cache: { cache: { enable: on.cache ?? false } },
      },
    },
  }).metric;
}

const mapper = (metric = obsPlatform().metric) =>
  createHealthObsMetricMapper({ metric, serviceVersion: "15.0.0", intervalMs: 30_000 });

describe("createHealthObsMetricMapper", () => {
  it("sends every group by default, with the platform's names, memory in bytes and saturated as 0", () => {
    const batch = mapper()(HEALTH, TAGS, AT);

    expect(batch?.metrics).toEqual([
      { name: "qs_memCommited", value: 4107.5 * 1_048_576 },
      { name: "qs_memAllocated", value: 4213.25 * 1_048_576 },
      { name: "qs_memFree", value: 10512.75 * 1_048_576 },
      { name: "qs_cpuTotal", value: 3.6 },
      { name: "qs_engineCalls", value: 4567 },
      { name: "qs_engineSelections", value: 123 },
      { name: "qs_engineSessionsActive", value: 2 },
      { name: "qs_engineSessionsTotal", value: 5 },
      { name: "qs_engineUsersActive", value: 1 },
      { name: "qs_engineUsersTotal", value: 3 },
      { name: "qs_engineSaturated", value: 0 },
      { name: "qs_docsActiveCount", value: 2 },
      { name: "qs_docsLoadedCount", value: 5 },
      { name: "qs_docsInMemoryCount", value: 2 },
      { name: "qs_cacheHits", value: 120 },
      { name: "qs_cacheLookups", value: 360 },
      { name: "qs_cacheaAdded", value: 200 },
      { name: "qs_cacheReplaced", value: 7 },
      { name: "qs_cacheBytesAdded", value: 1048576 },
    ]);
    expect(batch?.timestamp).toBe(AT);
    expect(batch?.intervalMs).toBe(30_000);
  });

  it("sends 1 for a saturated engine", () => {
    const batch = mapper(metricConfig({ engine: ["saturated"] }))({ ...HEALTH, saturated: true }, TAGS, AT);

    expect(batch?.metrics).toEqual([{ name: "qs_engineSaturated", value: 1 }]);
  });

  it.each([
    [{ engine: ["memory"] }, ["qs_memCommited", "qs_memAllocated", "qs_memFree"]],
    [{ engine: ["cpu"] }, ["qs_cpuTotal"]],
    [{ engine: ["calls"] }, ["qs_engineCalls"]],
    [{ engine: ["selections"] }, ["qs_engineSelections"]],
    [{ engine: ["sessions"] }, ["qs_engineSessionsActive", "qs_engineSessionsTotal"]],
    [{ engine: ["users"] }, ["qs_engineUsersActive", "qs_engineUsersTotal"]],
    [{ engine: ["saturated"] }, ["qs_engineSaturated"]],
    [{ docCount: true }, ["qs_docsActiveCount", "qs_docsLoadedCount", "qs_docsInMemoryCount"]],
    [
      { cache: true },
      ["qs_cacheHits", "qs_cacheLookups", "qs_cacheaAdded", "qs_cacheReplaced", "qs_cacheBytesAdded"],
    ],
  ])("sends only the metrics of the enabled group %j", (on, names) => {
    const batch = mapper(metricConfig(on))(HEALTH, TAGS, AT);

    expect(batch?.metrics.map((m) => m.name)).toEqual(names);
  });

  it("gives no batch when every group is off", () => {
    expect(mapper(metricConfig({}))(HEALTH, TAGS, AT)).toBeUndefined();
  });

  it("attributes are the server tags, the static attributes and serviceVersion", () => {
    const metric = obsPlatform({
      metric: {
        attribute: {
          static: [
            { name: "env", value: "prod" },
            { name: "host", value: "not-this" },
          ],
        },
      },
    }).metric;

    expect(mapper(metric)(HEALTH, TAGS, AT)?.attributes).toEqual({
      ...TAGS,
      env: "prod",
      serviceVersion: "15.0.0",
    });
  });

  it("leaves serviceVersion out when its flag is off", () => {
    const metric = obsPlatform({
      metric: { attribute: { dynamic: { serviceVersion: { enable: false } } } },
    }).metric;

    expect(mapper(metric)(HEALTH, TAGS, AT)?.attributes).toEqual(TAGS);
  });
});
