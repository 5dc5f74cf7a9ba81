/**
 * The Windows service monitor's metrics on the scrape endpoint: the last known state of each
 * watched service as Windows numbers it (`steward_windows_service_state`, 1 STOPPED ... 4 RUNNING
 * ... 7 PAUSED; absent until its first successful reading), the changes seen
 * (`steward_windows_service_changes_total{change}`: stopped, started, changed) and the readings
 * that failed (`steward_windows_service_failed_readings_total{reason}`: unreachable, denied,
 * missing, timeout, other), each per host and service.
 */
import type { MetricsRegistry } from "../../../core/ports.ts";

type Labels = Readonly<Record<string, string>>;

/** Counts by label set, in the order first seen. */
class LabelledCounts {
  private readonly counts = new Map<string, { labels: Labels; value: number }>();

  add(labels: Labels): void {
    const key = JSON.stringify(labels);
    const entry = this.counts.get(key) ?? { labels, value: 0 };
    entry.value += 1;
    this.counts.set(key, entry);
  }

  samples() {
    return [...this.counts.values()].map(({ labels, value }) => ({ labels, value }));
  }
}

export interface ServiceMonitorMetrics {
  changed(host: string, service: string, change: string): void;
  failed(host: string, service: string, reason: string): void;
}

export function declareServiceMonitorMetrics(
  registry: MetricsRegistry,
  states: () => readonly { host: string; service: string; stateNum: number }[],
): ServiceMonitorMetrics {
  const changes = new LabelledCounts();
  const failures = new LabelledCounts();
  registry.gauge({
    name: "steward_windows_service_state",
    help: "Last known state of a watched Windows service, as Windows numbers it (1 STOPPED, 2 START_PENDING, 3 STOP_PENDING, 4 RUNNING, 5 CONTINUE_PENDING, 6 PAUSE_PENDING, 7 PAUSED)",
    labelNames: ["host", "service"],
    collect: () =>
      states().map(({ host, service, stateNum }) => ({ labels: { host, service }, value: stateNum })),
  });
  registry.counter({
    name: "steward_windows_service_changes_total",
    help: "Changes of state of watched Windows services (the first reading, a baseline, is not one)",
    labelNames: ["host", "service", "change"],
    collect: () => changes.samples(),
  });
  registry.counter({
    name: "steward_windows_service_failed_readings_total",
    help: "Readings of watched Windows services that failed, by reason (unreachable, denied, missing, timeout, other)",
    labelNames: ["host", "service", "reason"],
    collect: () => failures.samples(),
  });
  return {
    changed: (host, service, change) => changes.add({ host, service, change }),
    failed: (host, service, reason) => failures.add({ host, service, reason }),
  };
}
