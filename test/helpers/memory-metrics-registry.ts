/**
 * An in-memory MetricsRegistry for tests: keeps the declared specs and reads them on `scrape()`,
 * with the same rules as the prom-client adapter (one declaration per name; values read at
 * scrape time). It passes the MetricsRegistry contract suite.
 */
import type { MetricSpec, MetricsRegistry } from "../../core/ports.ts";
import type { ScrapedMetric } from "./prometheus-text.ts";

export interface MemoryMetricsRegistry extends MetricsRegistry {
  scrape(): ScrapedMetric[];
}

export function createMemoryMetricsRegistry(): MemoryMetricsRegistry {
  const declared = new Map<string, { type: string; spec: MetricSpec<string> }>();
  const declare = (type: string, spec: MetricSpec<string>) => {
    if (declared.has(spec.name)) throw new Error(`metric ${spec.name} is already declared`);
    declared.set(spec.name, { type, spec });
  };
  return {
    counter: (spec) => declare("counter", spec),
    gauge: (spec) => declare("gauge", spec),
    scrape: () =>
      [...declared.values()].map(({ type, spec }) => ({
        name: spec.name,
        help: spec.help,
        type,
        samples: [...spec.collect()].map((sample) => ({ labels: { ...sample.labels }, value: sample.value })),
      })),
  };
}
