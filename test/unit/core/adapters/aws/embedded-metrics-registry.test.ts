/**
 * The cloud functions' metrics as CloudWatch embedded metric format lines: a counter is written
 * as what it grew by since the last flush (nothing when it did not grow), a gauge as its value,
 * also without dimensions; labels are the dimensions; a name is declared once.
 */
import { describe, expect, it } from "vitest";
import { createEmbeddedMetricsRegistry } from "../../../../../core/adapters/aws/embedded-metrics-registry.ts";

function registryWithLines() {
  const lines: string[] = [];
  const registry = createEmbeddedMetricsRegistry(
    (line) => void lines.push(line),
    () => 1_765_000_000_000,
  );
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { registry, lines, parsed };
}

describe("embedded metrics registry", () => {
  it("writes a counter's growth since the last flush, one line per sample with its labels as dimensions", () => {
    const { registry, lines, parsed } = registryWithLines();
    const counts = { processed: 2, duplicate: 0 };
    registry.counter({
      name: "steward_cloud_events_total",
      help: "events",
      labelNames: ["tenant", "outcome"],
      collect: () =>
        Object.entries(counts).map(([outcome, value]) => ({ labels: { tenant: "sim-a", outcome }, value })),
    });

    registry.flush();
    counts.processed = 5;
    registry.flush();
    registry.flush();

    expect(lines.every((line) => line.endsWith("\n"))).toBe(true);
    expect(parsed()).toEqual([
      {
        _aws: {
          Timestamp: 1_765_000_000_000,
          CloudWatchMetrics: [
            {
              Namespace: "Steward",
              Dimensions: [["tenant", "outcome"]],
              Metrics: [{ Name: "steward_cloud_events_total", Unit: "Count" }],
            },
          ],
        },
        tenant: "sim-a",
        outcome: "processed",
        steward_cloud_events_total: 2,
      },
      expect.objectContaining({ outcome: "processed", steward_cloud_events_total: 3 }),
    ]);
  });

  it("writes a gauge's value at every flush, per label set and without dimensions", () => {
    const { registry, parsed } = registryWithLines();
    registry.gauge({
      name: "steward_cloud_cursor_lag_seconds",
      help: "lag",
      labelNames: ["tenant", "input"],
      collect: () => [{ labels: { tenant: "sim-b", input: "reloads" }, value: 120 }],
    });

    registry.flush();
    registry.flush();

    const [first, second] = parsed();
    expect(first).toMatchObject({ tenant: "sim-b", input: "reloads", steward_cloud_cursor_lag_seconds: 120 });
    expect((first?._aws as { CloudWatchMetrics?: unknown[] } | undefined)?.CloudWatchMetrics).toEqual([
      {
        Namespace: "Steward",
        Dimensions: [["tenant", "input"], []],
        Metrics: [{ Name: "steward_cloud_cursor_lag_seconds", Unit: "None" }],
      },
    ]);
    expect(second).toEqual(first);
  });

  it("refuses a second declaration of one name", () => {
    const { registry } = registryWithLines();
    const spec = { name: "steward_x_total", help: "x", labelNames: [], collect: () => [] };
    registry.counter(spec);

    expect(() => registry.gauge(spec)).toThrow("metric steward_x_total is already declared");
  });
});
