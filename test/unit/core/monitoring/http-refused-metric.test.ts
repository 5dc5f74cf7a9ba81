import { describe, expect, it } from "vitest";
import {
  declareHttpRefusedMetric,
  HTTP_REFUSED_METRIC,
} from "../../../../core/monitoring/http-refused-metric.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";

const samplesOf = (registry: ReturnType<typeof createMemoryMetricsRegistry>) =>
  registry.scrape().find((metric) => metric.name === HTTP_REFUSED_METRIC)?.samples;

describe("declareHttpRefusedMetric", () => {
  it("declares one counter with a sample per reason for each listener that asked for its counter", () => {
    // Prepare
    const registry = createMemoryMetricsRegistry();
    const metric = declareHttpRefusedMetric(registry);
    const before = samplesOf(registry);

    // Act
    const ingest = metric.counter("ingest");
    metric.counter("rest");
    ingest("host");
    ingest("host");
    ingest("connections");
    ingest("tls");

    // Assess
    expect(before).toEqual([]);
    expect(registry.scrape().find((m) => m.name === HTTP_REFUSED_METRIC)?.type).toBe("counter");
    expect(samplesOf(registry)).toEqual([
      { labels: { listener: "ingest", reason: "host" }, value: 2 },
      { labels: { listener: "ingest", reason: "timeout" }, value: 0 },
      { labels: { listener: "ingest", reason: "connections" }, value: 1 },
      { labels: { listener: "ingest", reason: "tls" }, value: 1 },
      { labels: { listener: "rest", reason: "host" }, value: 0 },
      { labels: { listener: "rest", reason: "timeout" }, value: 0 },
      { labels: { listener: "rest", reason: "connections" }, value: 0 },
      { labels: { listener: "rest", reason: "tls" }, value: 0 },
    ]);
  });
});
