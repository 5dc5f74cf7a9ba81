import { describe, expect, it } from "vitest";
import { createPromMetricsRegistry } from "../../../../core/adapters/prometheus/prom-metrics-registry.ts";
import { serverLabelNames } from "../../../../core/polling/scrape-labels.ts";
import { sessionTags } from "../../../../core/polling/server-tags.ts";
import { declareSessionGauges, type SessionReading } from "../../../../core/polling/session-gauges.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { parsePrometheusText } from "../../../helpers/prometheus-text.ts";
import { TAGS } from "./polling-fixtures.ts";

const LABELS = serverLabelNames(["server_group"]);
const ROOT = sessionTags(TAGS, "/", "sense1.example.com:4243");
const HDR = sessionTags(TAGS, "/hdr", "sense1.example.com:4243");

describe("declareSessionGauges", () => {
  it("publishes steward_user_session_total per virtual proxy with server and session labels, no service label", () => {
    const readings: SessionReading[] = [
      { tags: ROOT, sessionCount: 4 },
      { tags: HDR, sessionCount: 0 },
    ];
    const registry = createMemoryMetricsRegistry();
    declareSessionGauges(registry, () => readings, LABELS);

    const [metric, ...others] = registry.scrape();

    expect(others).toEqual([]);
    expect(metric?.name).toBe("steward_user_session_total");
    expect(metric?.type).toBe("gauge");
    expect(metric?.samples).toEqual([
      { labels: { ...ROOT }, value: 4 },
      { labels: { ...HDR }, value: 0 },
    ]);
    expect(Object.keys(metric?.samples[0]?.labels ?? {})).not.toContain("service");
  });

  it("reads the latest count at every scrape", () => {
    const readings: SessionReading[] = [{ tags: ROOT, sessionCount: 4 }];
    const registry = createMemoryMetricsRegistry();
    declareSessionGauges(registry, () => readings, LABELS);
    readings[0] = { tags: ROOT, sessionCount: 9 };

    expect(registry.scrape()[0]?.samples[0]?.value).toBe(9);
  });

  it("renders through prom-client", async () => {
    const registry = createPromMetricsRegistry();
    declareSessionGauges(registry, () => [{ tags: HDR, sessionCount: 3 }], LABELS);

    const parsed = parsePrometheusText(await registry.metrics());

    expect(parsed).toEqual([
      {
        name: "steward_user_session_total",
        help: expect.any(String),
        type: "gauge",
        samples: [{ labels: { ...HDR }, value: 3 }],
      },
    ]);
  });
});
