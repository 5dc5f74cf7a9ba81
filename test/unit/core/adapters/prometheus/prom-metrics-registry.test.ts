import { describe, expect, it } from "vitest";
import { createPromMetricsRegistry } from "../../../../../core/adapters/prometheus/prom-metrics-registry.ts";

describe("createPromMetricsRegistry", () => {
  it("answers with the Prometheus text format's content type", () => {
    expect(createPromMetricsRegistry().contentType).toBe("text/plain; version=0.0.4; charset=utf-8");
  });

  it("renders declared metrics as text exposition lines", async () => {
    const registry = createPromMetricsRegistry();
    registry.counter({
      name: "steward_udp_messages_total",
      help: "UDP datagrams",
      labelNames: ["queue", "outcome"],
      collect: () => [{ labels: { queue: "user_events", outcome: "received" }, value: 42 }],
    });

    const text = await registry.metrics();

    expect(text).toBe(
      [
        "# HELP steward_udp_messages_total UDP datagrams",
        "# TYPE steward_udp_messages_total counter",
        'steward_udp_messages_total{queue="user_events",outcome="received"} 42',
        "",
      ].join("\n"),
    );
  });

  it("adds prom-client's process metrics only when asked", async () => {
    const plain = await createPromMetricsRegistry().metrics();
    const withDefaults = await createPromMetricsRegistry({ defaultMetrics: true }).metrics();

    expect(plain).not.toContain("process_cpu_user_seconds_total");
    expect(withDefaults).toContain("# TYPE process_cpu_user_seconds_total counter");
    expect(withDefaults).toContain("nodejs_heap_size_used_bytes");
  });

  it("fails the scrape when a collect throws, rather than publishing part of it", async () => {
    const registry = createPromMetricsRegistry();
    registry.gauge({
      name: "steward_broken",
      help: "Broken",
      labelNames: [],
      collect: () => {
        throw new Error("collect failed");
      },
    });

    await expect(registry.metrics()).rejects.toThrow("collect failed");
  });
});
