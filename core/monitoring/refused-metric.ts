/**
 * `steward_destination_refused_total{destination,reason}`: items destinations refused as data
 * (never written there, never retried), by reason, read from their stats at each scrape.
 *
 * A counter of its own rather than an outcome of `steward_audit_events_total`: a refusal is
 * per destination (an event one destination refuses is written to the others) and the agent's
 * points are refused too, while that counter counts each audit event once through the queue.
 * `destination` is `audit.<name>` for the audit destinations (`audit.timeseriesdb`), and the
 * agent's destination name (`timeseriesdb`, summed over its parts) otherwise, as on the status
 * page. A destination and reason appear with their first refusal.
 *
 * The audit pipeline and the agent fill the same registry independently and a metric name can
 * be declared only once, so the metric is declared with the first source added to a registry
 * and every later source of that registry joins it.
 */
import type { MetricsRegistry } from "../ports.ts";

export interface RefusedCount {
  destination: string;
  reason: string;
  count: number;
}

/** The refused counts of some destinations, read at each scrape. */
export type RefusedSource = () => Iterable<RefusedCount>;

const sourcesOf = new WeakMap<MetricsRegistry, RefusedSource[]>();

export function addRefusedSource(registry: MetricsRegistry, source: RefusedSource): void {
  const known = sourcesOf.get(registry);
  if (known !== undefined) {
    known.push(source);
    return;
  }
  const sources = [source];
  sourcesOf.set(registry, sources);
  registry.counter({
    name: "steward_destination_refused_total",
    help: "Items each destination refused as data (not written there, not retried), by reason",
    labelNames: ["destination", "reason"],
    collect() {
      const totals = new Map<string, { destination: string; reason: string; value: number }>();
      for (const read of sources) {
        for (const { destination, reason, count } of read()) {
          const key = `${destination}\u0000${reason}`;
          const total = totals.get(key);
          if (total === undefined) totals.set(key, { destination, reason, value: count });
          else total.value += count;
        }
      }
      return [...totals.values()].map(({ destination, reason, value }) => ({
        labels: { destination, reason },
        value,
      }));
    },
  });
}

/** The counts in stats by destination name (`refused` by reason), under `prefix` + name. */
export function refusedCounts(
  stats: Readonly<Record<string, { refused?: Readonly<Record<string, number>> | undefined }>>,
  prefix = "",
): RefusedCount[] {
  return Object.entries(stats).flatMap(([name, { refused }]) =>
    Object.entries(refused ?? {}).map(([reason, count]) => ({
      destination: `${prefix}${name}`,
      reason,
      count,
    })),
  );
}
