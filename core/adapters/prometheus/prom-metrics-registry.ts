/**
 * The MetricsRegistry over `prom-client` (CONTRACT §7, scrape endpoint): each instance owns its
 * own `Registry` — never prom-client's global one — so two instances (two tests, two wirings)
 * cannot collide on a metric name. A declared metric reads its values from the spec's `collect`
 * inside prom-client's own collect hook, i.e. only when the endpoint is scraped: the parts that
 * count pay nothing per event, and the exposition shows exactly the samples of that scrape (the
 * metric is reset first, so a label set no longer reported disappears).
 *
 * `metrics()` renders the Prometheus text exposition and `contentType` is its media type, for
 * the `GET /metrics` handler. A `collect` that throws makes `metrics()` reject: the handler
 * answers 500 rather than publishing a partial picture.
 */
import { Counter, collectDefaultMetrics, Gauge, Registry } from "prom-client";
import type { MetricSpec, MetricsRegistry } from "../../ports.ts";

export interface PromMetricsRegistryOptions {
  /** Adds prom-client's process and Node.js runtime metrics (CPU, memory, event loop, GC). */
  defaultMetrics?: boolean;
}

export interface PromMetricsRegistry extends MetricsRegistry {
  /** The text exposition of every declared metric, collected now. */
  metrics(): Promise<string>;
  /** `text/plain; version=0.0.4; charset=utf-8`, the Content-Type of the `/metrics` answer. */
  readonly contentType: string;
}

export function createPromMetricsRegistry(options: PromMetricsRegistryOptions = {}): PromMetricsRegistry {
  const registry = new Registry();
  if (options.defaultMetrics === true) collectDefaultMetrics({ register: registry });

  return {
    counter<L extends string>(spec: MetricSpec<L>) {
      const counter: Counter<L> = new Counter<L>({
        name: spec.name,
        help: spec.help,
        labelNames: spec.labelNames,
        registers: [registry],
        collect() {
          counter.reset();
          for (const sample of spec.collect()) counter.inc(sample.labels, sample.value);
        },
      });
    },
    gauge<L extends string>(spec: MetricSpec<L>) {
      const gauge: Gauge<L> = new Gauge<L>({
        name: spec.name,
        help: spec.help,
        labelNames: spec.labelNames,
        registers: [registry],
        collect() {
          gauge.reset();
          for (const sample of spec.collect()) gauge.set(sample.labels, sample.value);
        },
      });
    },
    metrics: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
