/**
 * What each destination of the agent did with what it was given, and the scrape metric built
 * from it. Every item handed to a destination ends up counted once: written, dropped by policy
 * (buffer full past the bounded wait, or a message whose publish failed) or rejected as data;
 * until then it is buffered. The metric is read at scrape time, never pushed from the hot path.
 */

import type { MetricsRegistry } from "../ports.ts";
import type { LastRefusal } from "./item-batcher.ts";

export interface DestinationStats {
  /** Items buffered or being written. */
  buffered: number;
  written: number;
  /** Write requests that failed, whatever the reason (retried or not). */
  failedWrites: number;
  /** Items given up by policy: buffer full past the bounded wait, or a failed publish. */
  dropped: number;
  /** Items the destination refused as data (or that could not be encoded for it). */
  rejected: number;
  /** `rejected` by reason (`beyond_retention`, `unencodable`, …); absent until the first. */
  refused?: Readonly<Record<string, number>> | undefined;
  /** Absent until the first refusal. */
  lastRefusal?: LastRefusal | undefined;
}

/**
 * Stats by destination name, e.g. `timeseriesdb`, `mqtt`, `obs-platform:<account>`: an
 * EventDestinations' `stats`, or a periodic writer's as `() => ({ timeseriesdb: writer.stats() })`.
 */
export type DestinationStatsSource = () => Readonly<
  Record<string, Pick<DestinationStats, "failedWrites" | "refused">>
>;

/**
 * Declares `steward_destination_write_errors_total{destination}` once for every source (the
 * agent's pipelines and periodic writers); sources naming the same destination are summed.
 */
export function declareDestinationMetrics(
  registry: MetricsRegistry,
  sources: readonly DestinationStatsSource[],
): void {
  registry.counter({
    name: "steward_destination_write_errors_total",
    help: "Failed write requests to each agent destination (retried, refused or dropped)",
    labelNames: ["destination"],
    collect() {
      const totals = new Map<string, number>();
      for (const source of sources) {
        for (const [destination, stats] of Object.entries(source())) {
          totals.set(destination, (totals.get(destination) ?? 0) + stats.failedWrites);
        }
      }
      return [...totals].map(([destination, value]) => ({ labels: { destination }, value }));
    },
  });
}
