/**
 * `steward_http_rate_limited_total{listener}`: requests refused by the per-client rate limit, by
 * listener (`ingest`, `rest`, `config_ui`). Declared once in the process's metrics registry, since
 * the listeners share the name; a listener has a sample from the moment it asks for its
 * counter (0 until its first refusal), and a listener that does not run has none.
 */
import type { MetricsRegistry } from "../ports.ts";

export const RATE_LIMITED_METRIC = "steward_http_rate_limited_total";

export interface RateLimitedMetric {
  /** The counting function of `listener`; its sample appears from now on. */
  counter(listener: string): () => void;
}

export function declareRateLimitedMetric(registry: MetricsRegistry): RateLimitedMetric {
  const counts = new Map<string, number>();
  registry.counter({
    name: RATE_LIMITED_METRIC,
    help: "HTTP requests refused with 429 by the per-client rate limit since start, by listener",
    labelNames: ["listener"],
    collect: () => [...counts].map(([listener, value]) => ({ labels: { listener }, value })),
  });
  return {
    counter(listener) {
      counts.set(listener, counts.get(listener) ?? 0);
      return () => counts.set(listener, (counts.get(listener) ?? 0) + 1);
    },
  };
}
