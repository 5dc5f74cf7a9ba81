/**
 * `steward_alerts_total{destination,kind,outcome}`: one counter per metrics registry, shared by
 * every dispatcher (the alert channels', the records of task runs'). The first to ask declares
 * it; the others count into the same numbers, so either may start first or alone and the scrape
 * shows one metric.
 */
import type { MetricsRegistry } from "../ports.ts";

export interface AlertOutcomeCounts {
  add(destination: string, kind: string, outcome: string): void;
}

const SEPARATOR = "\u0001";
const byRegistry = new WeakMap<MetricsRegistry, AlertOutcomeCounts>();

function declare(metrics: MetricsRegistry | undefined): AlertOutcomeCounts {
  // destination \u0001 kind \u0001 outcome → count
  const counts = new Map<string, number>();
  metrics?.counter({
    name: "steward_alerts_total",
    help:
      "Alerts per destination, alert kind and outcome (sent, failed, suppressed by the per-task rate limit, " +
      "over_budget: the destination's alerts per minute used up, skipped: nothing to send)",
    labelNames: ["destination", "kind", "outcome"],
    collect: () =>
      [...counts].map(([key, value]) => {
        const [destination = "", kind = "", outcome = ""] = key.split(SEPARATOR);
        return { labels: { destination, kind, outcome }, value };
      }),
  });
  return {
    add(destination, kind, outcome) {
      const key = `${destination}${SEPARATOR}${kind}${SEPARATOR}${outcome}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    },
  };
}

/** The registry's counts (declared on first use); without a registry, counts nobody reads. */
export function alertOutcomeCounts(metrics: MetricsRegistry | undefined): AlertOutcomeCounts {
  if (metrics === undefined) return declare(undefined);
  const known = byRegistry.get(metrics);
  if (known !== undefined) return known;
  const counts = declare(metrics);
  byRegistry.set(metrics, counts);
  return counts;
}
