import { describe, expect, it } from "vitest";
import { createPromMetricsRegistry } from "../../../../core/adapters/prometheus/prom-metrics-registry.ts";
import { declareHealthGauges, type HealthReading } from "../../../../core/polling/health-gauges.ts";
import { mbToBytes } from "../../../../core/polling/health-obs-metrics.ts";
import { serverLabelNames } from "../../../../core/polling/scrape-labels.ts";
import type { EngineHealth } from "../../../../core/ports.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { parsePrometheusText } from "../../../helpers/prometheus-text.ts";
import { HEALTH, STARTED, TAGS } from "./polling-fixtures.ts";

const LABELS = serverLabelNames(["server_group"]);
const OTHER_TAGS = { host: "sense2", server_name: "sense2", server_description: "", server_group: "TEST" };
const OTHER: EngineHealth = {
  ...HEALTH,
  version: "14.0.1",
  saturated: true,
  mem: { ...HEALTH.mem, free: 1 },
};

const MB = 1_048_576;

function scrape(readings: HealthReading[]) {
  const registry = createMemoryMetricsRegistry();
  declareHealthGauges(registry, () => readings, LABELS);
  const metrics = registry.scrape();
  return {
    metrics,
    sample: (name: string, server = "sense1") =>
      metrics.find((m) => m.name === name)?.samples.find((s) => s.labels.server_name === server),
  };
}

describe("declareHealthGauges", () => {
  it("declares Butler SOS's gauges with the steward_ prefix", () => {
    const { metrics } = scrape([]);

    expect(metrics.map((m) => m.name).sort()).toEqual(
      [
        "steward_apps_calls",
        "steward_apps_selections",
        "steward_apps_activedocs_total",
        "steward_apps_inmemorydocs_total",
        "steward_apps_loadeddocs_total",
        "steward_cache_added",
        "steward_cache_bytes_added",
        "steward_cache_hits",
        "steward_cache_lookups",
        "steward_cache_replaced",
        "steward_cache_saturated",
        "steward_cpu_total",
        "steward_mem_committed",
        "steward_mem_allocated",
        "steward_mem_free",
        "steward_session_active",
        "steward_session_total",
        "steward_users_active",
        "steward_users_total",
        "steward_engine_metadata",
      ].sort(),
    );
    expect(metrics.every((m) => m.type === "gauge")).toBe(true);
    expect(metrics.every((m) => m.samples.length === 0)).toBe(true);
  });

  it("values each gauge from the server's latest health check, labelled with its server tags", () => {
    const { sample } = scrape([{ tags: TAGS, health: HEALTH }]);

    const values = {
      steward_apps_calls: 4567,
      steward_apps_selections: 123,
      steward_apps_activedocs_total: 2,
      steward_apps_inmemorydocs_total: 2,
      steward_apps_loadeddocs_total: 5,
      steward_cache_added: 200,
      steward_cache_bytes_added: 1048576,
      steward_cache_hits: 120,
      steward_cache_lookups: 360,
      steward_cache_replaced: 7,
      steward_cache_saturated: 0,
      steward_cpu_total: 3.6,
      steward_mem_committed: 4107.5 * MB,
      steward_mem_allocated: 4213.25 * MB,
      steward_mem_free: 10512.75 * MB,
      steward_session_active: 2,
      steward_session_total: 5,
      steward_users_active: 1,
      steward_users_total: 3,
    };
    for (const [name, value] of Object.entries(values)) {
      expect(sample(name), name).toEqual({ labels: { ...TAGS }, value });
    }
  });

  it("says bytes in the memory gauges' help", () => {
    const { metrics } = scrape([]);

    for (const name of ["steward_mem_committed", "steward_mem_allocated", "steward_mem_free"]) {
      expect(metrics.find((m) => m.name === name)?.help).toMatch(/bytes/);
    }
  });

  it("publishes engine_metadata = 1 with the engine's start and version as extra labels", () => {
    const { sample } = scrape([{ tags: TAGS, health: HEALTH }]);

    expect(sample("steward_engine_metadata")).toEqual({
      labels: { ...TAGS, engine_started: STARTED, engine_version: "12.1306.1" },
      value: 1,
    });
  });

  it("has one series per server, and reads the latest values at every scrape", () => {
    const readings: HealthReading[] = [{ tags: TAGS, health: HEALTH }];
    const registry = createMemoryMetricsRegistry();
    declareHealthGauges(registry, () => readings, LABELS);
    readings.push({ tags: OTHER_TAGS, health: OTHER });

    const saturated = registry.scrape().find((m) => m.name === "steward_cache_saturated");

    expect(saturated?.samples).toEqual([
      { labels: { ...TAGS }, value: 0 },
      { labels: OTHER_TAGS, value: 1 },
    ]);
  });

  it("declares only the server label names, never one without a value", () => {
    const { metrics } = scrape([{ tags: { ...TAGS, stray: "x" }, health: HEALTH }]);

    expect(metrics.find((m) => m.name === "steward_cpu_total")?.samples[0]?.labels).toEqual(TAGS);
  });

  it("renders through prom-client", async () => {
    const registry = createPromMetricsRegistry();
    declareHealthGauges(registry, () => [{ tags: TAGS, health: HEALTH }], LABELS);

    const parsed = parsePrometheusText(await registry.metrics());

    expect(parsed.find((m) => m.name === "steward_mem_free")?.samples).toEqual([
      { labels: { ...TAGS }, value: 10512.75 * MB },
    ]);
    expect(parsed.find((m) => m.name === "steward_engine_metadata")?.samples[0]?.labels).toEqual({
      ...TAGS,
      engine_started: STARTED,
      engine_version: "12.1306.1",
    });
  });
});

describe("memory in whole bytes", () => {
  it("rounds MB that do not divide into bytes", () => {
    expect(mbToBytes(0.1)).toBe(104858);
    expect(mbToBytes(4107.5)).toBe(4107.5 * 1_048_576);
  });
});
