import { describe, expect, it } from "vitest";
import {
  declareRateLimitedMetric,
  RATE_LIMITED_METRIC,
} from "../../../../core/ratelimit/rate-limited-metric.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";

const samplesOf = (registry: ReturnType<typeof createMemoryMetricsRegistry>) =>
  registry.scrape().find((metric) => metric.name === RATE_LIMITED_METRIC)?.samples;

describe("declareRateLimitedMetric", () => {
  it("declares one counter with a sample for each listener that asked for its counter", () => {
    // Prepare
    const registry = createMemoryMetricsRegistry();
    const metric = declareRateLimitedMetric(registry);
    const before = samplesOf(registry);

    // Act
    const ingest = metric.counter("ingest");
    metric.counter("rest");
    ingest();
    ingest();

    // Assess
    expect(before).toEqual([]);
    expect(registry.scrape().find((m) => m.name === RATE_LIMITED_METRIC)?.type).toBe("counter");
    expect(samplesOf(registry)).toEqual([
      { labels: { listener: "ingest" }, value: 2 },
      { labels: { listener: "rest" }, value: 0 },
    ]);
  });
});
