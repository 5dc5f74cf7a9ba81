import { describe, expect, it } from "vitest";
import { createPromMetricsRegistry } from "../../../../core/adapters/prometheus/prom-metrics-registry.ts";
import { addRefusedSource, refusedCounts } from "../../../../core/monitoring/refused-metric.ts";
import { parsePrometheusText } from "../../../helpers/prometheus-text.ts";

describe("steward_destination_refused_total", () => {
  it("is declared once for the audit pipeline and the agent, summing what they refused by destination and reason", async () => {
    const registry = createPromMetricsRegistry();
    const agentUser = { timeseriesdb: { refused: { field_type_conflict: 2 } }, mqtt: {} };
    const agentLog = { timeseriesdb: { refused: { field_type_conflict: 1, unparsable: 4 } } };
    const audit = { timeseriesdb: { refused: { beyond_retention: 3 } }, parquet: {} };

    addRefusedSource(registry, () => [...refusedCounts(agentUser), ...refusedCounts(agentLog)]);
    addRefusedSource(registry, () => refusedCounts(audit, "audit."));

    const metric = parsePrometheusText(await registry.metrics()).find(
      (family) => family.name === "steward_destination_refused_total",
    );
    expect(metric?.type).toBe("counter");
    expect(metric?.samples).toEqual([
      { labels: { destination: "timeseriesdb", reason: "field_type_conflict" }, value: 3 },
      { labels: { destination: "timeseriesdb", reason: "unparsable" }, value: 4 },
      { labels: { destination: "audit.timeseriesdb", reason: "beyond_retention" }, value: 3 },
    ]);
  });
});
