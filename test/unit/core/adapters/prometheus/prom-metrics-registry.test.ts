import { describe, expect, it } from "vitest";
import { createPromMetricsRegistry } from "../../../../../core/adapters/prometheus/prom-metrics-registry.ts";
import { declareHealthGauges, type HealthReading } from "../../../../../core/polling/health-gauges.ts";
import { serverLabelNames } from "../../../../../core/polling/scrape-labels.ts";
import type { MetricSample } from "../../../../../core/ports.ts";
import { parsePrometheusText } from "../../../../helpers/prometheus-text.ts";
import { HEALTH } from "../../polling/polling-fixtures.ts";

/** Lets every pending `setImmediate` run (the registry renders changed metrics one per turn). */
const turns = async (count = 30) => {
  for (let i = 0; i < count; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

/** A gauge whose samples change only when `change()` is called, counting its collects. */
function changingGauge() {
  let samples: MetricSample<"queue">[] = [{ labels: { queue: "a" }, value: 1 }];
  const listeners: (() => void)[] = [];
  let collects = 0;
  return {
    spec: {
      name: "steward_test_changing",
      help: "Changes when told",
      labelNames: ["queue" as const],
      collect: () => {
        collects += 1;
        return samples;
      },
      onChange: (listener: () => void) => listeners.push(listener),
    },
    change(next: MetricSample<"queue">[]) {
      samples = next;
      for (const listener of listeners) listener();
    },
    collects: () => collects,
  };
}

/** 200 servers' health readings, each with values of its own. */
function healthReadings(round: number): HealthReading[] {
  return Array.from({ length: 200 }, (_, i) => ({
    tags: {
      host: `10.0.${i >> 8}.${i & 255}`,
      server_name: `sense-${i}`,
      server_description: `node "${i}"\\`,
    },
    health: {
      ...HEALTH,
      started: `2026112${round}T000000.000Z`,
      cpu: { total: (i * 7 + round) / 3 },
      mem: { committed: 1000 + i + round, allocated: 900.5 + i, free: 20_000.25 - i },
      saturated: (i + round) % 5 === 0,
    },
  }));
}

describe("createPromMetricsRegistry: rendering at each scrape", () => {
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

describe("createPromMetricsRegistry: metrics that signal their changes", () => {
  it("renders a metric whose owner signals its changes once per change, not at every scrape", async () => {
    const registry = createPromMetricsRegistry();
    const gauge = changingGauge();
    registry.gauge(gauge.spec);

    const first = await registry.metrics();
    const second = await registry.metrics();
    gauge.change([{ labels: { queue: "b" }, value: 2 }]);
    const third = await registry.metrics();

    expect(second).toBe(first);
    expect(first).toContain('steward_test_changing{queue="a"} 1\n');
    expect(third).toContain('steward_test_changing{queue="b"} 2\n');
    expect(third).not.toContain('queue="a"');
    expect(gauge.collects()).toBe(2);
  });

  it("hands out a kept metric's bytes as they are until it changes, among the chunks of the others", async () => {
    const registry = createPromMetricsRegistry({ defaultMetrics: true });
    registry.counter({
      name: "steward_test_total",
      help: "Counted at every scrape",
      labelNames: [],
      collect: () => [{ labels: {}, value: 5 }],
    });
    const gauge = changingGauge();
    registry.gauge(gauge.spec);

    const first = await registry.chunks();
    const second = await registry.chunks();
    const text = Buffer.concat(second).toString("utf8");

    const kept = (chunks: Uint8Array[]) =>
      chunks.find((chunk) => Buffer.from(chunk).toString("utf8").startsWith("# HELP steward_test_changing"));
    expect(kept(second)).toBe(kept(first));
    expect(second).toHaveLength(3);
    expect(parsePrometheusText(text).map((metric) => metric.name)).toEqual(
      expect.arrayContaining([
        "process_cpu_user_seconds_total",
        "steward_test_total",
        "steward_test_changing",
      ]),
    );
    expect(text.indexOf("steward_test_total")).toBeLessThan(text.indexOf("steward_test_changing"));
  });

  it("renders a changed metric ahead of the next scrape, in the turns after the change", async () => {
    const registry = createPromMetricsRegistry();
    const gauge = changingGauge();
    registry.gauge(gauge.spec);
    await registry.metrics();

    gauge.change([{ labels: { queue: "c" }, value: 3 }]);
    await turns();
    const collectsBeforeScrape = gauge.collects();
    const text = await registry.metrics();

    expect(collectsBeforeScrape).toBe(2);
    expect(gauge.collects()).toBe(2);
    expect(text).toContain('steward_test_changing{queue="c"} 3\n');
  });

  it("fails the scrape after a change whose collect throws, and recovers with the next change", async () => {
    const registry = createPromMetricsRegistry();
    let broken = false;
    const listeners: (() => void)[] = [];
    registry.gauge({
      name: "steward_test_fragile",
      help: "Fragile",
      labelNames: [],
      collect: () => {
        if (broken) throw new Error("readings unavailable");
        return [{ labels: {}, value: 1 }];
      },
      onChange: (listener) => listeners.push(listener),
    });

    broken = true;
    for (const listener of listeners) listener();
    await turns();
    const failed = registry.metrics();
    await expect(failed).rejects.toThrow("readings unavailable");
    broken = false;
    for (const listener of listeners) listener();

    expect(await registry.metrics()).toContain("steward_test_fragile 1\n");
  });

  it("serves 200 servers' health gauges rendered once per round exactly as rendered at every scrape", async () => {
    let readings = healthReadings(1);
    const rounds: (() => void)[] = [];
    const cached = createPromMetricsRegistry();
    const uncached = createPromMetricsRegistry();
    const labels = serverLabelNames([]);
    declareHealthGauges(
      cached,
      () => readings,
      labels,
      (listener) => rounds.push(listener),
    );
    declareHealthGauges(uncached, () => readings, labels);

    const before = await cached.metrics();
    readings = healthReadings(2);
    for (const listener of rounds) listener();
    const renderedInline = await cached.metrics();
    readings = healthReadings(3);
    for (const listener of rounds) listener();
    await turns();
    const renderedAhead = await cached.metrics();

    expect(before).not.toBe(renderedAhead);
    expect(renderedAhead).toBe(await uncached.metrics());
    readings = healthReadings(2);
    expect(renderedInline).toBe(await uncached.metrics());
    const parsed = parsePrometheusText(renderedAhead);
    expect(parsed).toHaveLength(20);
    expect(parsed.every((metric) => metric.samples.length === 200)).toBe(true);
    const metadata = parsed.find((metric) => metric.name === "steward_engine_metadata");
    expect(metadata?.samples[7]?.labels).toMatchObject({
      server_name: "sense-7",
      server_description: 'node "7"\\',
      engine_started: "20261123T000000.000Z",
    });
  });
});
