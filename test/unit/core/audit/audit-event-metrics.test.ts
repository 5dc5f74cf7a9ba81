import { describe, expect, it } from "vitest";
import { createPromMetricsRegistry } from "../../../../core/adapters/prometheus/prom-metrics-registry.ts";
import { declareAuditEventMetrics } from "../../../../core/audit/audit-event-metrics.ts";
import { parsePrometheusText } from "../../../helpers/prometheus-text.ts";

// Distinct values, so that an outcome read from the wrong counter shows.
const counters = {
  received: 60,
  queued: 50,
  processed: 45,
  failed: 3,
  droppedRateLimit: 7,
  droppedQueueFull: 2,
  droppedSize: 4,
  utilisationPct: 37.5,
};

async function scrape(registry: ReturnType<typeof createPromMetricsRegistry>) {
  return parsePrometheusText(await registry.metrics()).find(
    (metric) => metric.name === "steward_audit_events_total",
  );
}

describe("declareAuditEventMetrics", () => {
  it("publishes steward_audit_events_total with one sample per outcome, each from its queue counter", async () => {
    // Prepare
    const registry = createPromMetricsRegistry();

    // Act
    declareAuditEventMetrics(registry, () => counters);
    const metric = await scrape(registry);

    // Assess
    expect(metric?.type).toBe("counter");
    expect(metric?.help).not.toBe("");
    expect(metric?.samples).toEqual([
      { labels: { outcome: "received" }, value: 60 },
      { labels: { outcome: "accepted" }, value: 50 },
      { labels: { outcome: "processed" }, value: 45 },
      { labels: { outcome: "failed" }, value: 3 },
      { labels: { outcome: "dropped_rate_limit" }, value: 7 },
      { labels: { outcome: "dropped_queue_full" }, value: 2 },
      { labels: { outcome: "dropped_size" }, value: 4 },
    ]);
  });

  it("reads the queue's counters at each scrape", async () => {
    // Prepare
    const registry = createPromMetricsRegistry();
    let current = { ...counters, queued: 1 };
    let reads = 0;
    declareAuditEventMetrics(registry, () => {
      reads += 1;
      return current;
    });
    const readsAfterDeclaring = reads;

    // Act
    const before = await scrape(registry);
    current = { ...counters, queued: 2 };
    const after = await scrape(registry);

    // Assess
    expect(readsAfterDeclaring).toBe(0);
    const accepted = (metric: typeof before) =>
      metric?.samples.find((sample) => sample.labels.outcome === "accepted")?.value;
    expect(accepted(before)).toBe(1);
    expect(accepted(after)).toBe(2);
  });

  it("publishes how full the queue is as steward_audit_queue_utilisation_ratio, 0 to 1, read at each scrape", async () => {
    // Prepare
    const registry = createPromMetricsRegistry();
    let current = counters;
    declareAuditEventMetrics(registry, () => current);
    const ratio = async () =>
      parsePrometheusText(await registry.metrics()).find(
        (metric) => metric.name === "steward_audit_queue_utilisation_ratio",
      );

    // Act
    const before = await ratio();
    current = { ...counters, utilisationPct: 100 };
    const full = await ratio();

    // Assess
    expect(before?.type).toBe("gauge");
    expect(before?.help).toMatch(/maxDiskBytes/);
    expect(before?.samples).toEqual([{ labels: {}, value: 0.375 }]);
    expect(full?.samples).toEqual([{ labels: {}, value: 1 }]);
  });
});
