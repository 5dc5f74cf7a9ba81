import { createPromMetricsRegistry } from "../../core/adapters/prometheus/prom-metrics-registry.ts";
import { createMemoryMetricsRegistry } from "../helpers/memory-metrics-registry.ts";
import { parsePrometheusText } from "../helpers/prometheus-text.ts";
import { describeMetricsRegistryContract } from "./metrics-registry.contract.ts";

describeMetricsRegistryContract("prom-client", () => {
  const registry = createPromMetricsRegistry();
  return { registry, scrape: async () => parsePrometheusText(await registry.metrics()) };
});

describeMetricsRegistryContract("in-memory", () => {
  const registry = createMemoryMetricsRegistry();
  return { registry, scrape: async () => registry.scrape() };
});
