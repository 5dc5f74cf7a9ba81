/**
 * The destinations of a monitor part (the licence monitor, the Windows service monitor): the
 * shared time-series client and broker connection, each only where the monitor's own switch and
 * the destination's master switch are both on (core/config/license-monitor-destinations.ts);
 * their stats counted with the other parts', and their writer stopped within the shutdown budget
 * under the part's name. A monitor writes a few points a run, so 2 s is what its writer gets at
 * stop before what it still holds is said and left.
 */
import { type AgentEventDestinations, createEventDestinations } from "../../core/agent-destinations/index.ts";
import type { Logger, Stoppable } from "../../core/ports.ts";
import type { WritingPartDeps } from "./agent-connections.ts";

export interface MonitorDestinations {
  readonly destinations: AgentEventDestinations;
  /** Stops the writer within the shutdown budget; the part stops it last. */
  readonly atShutdown: Stoppable;
}

export function startMonitorDestinations(
  part: string,
  writesTo: { readonly timeseriesdb: boolean; readonly mqtt: boolean },
  deps: Pick<WritingPartDeps, "config" | "clock" | "connections"> & { readonly logger: Logger },
): MonitorDestinations {
  const { config, clock, connections, logger } = deps;
  const destinations = createEventDestinations({
    maxBatchSize: config.timeseriesdbConfig.maxBatchSize,
    series: writesTo.timeseriesdb ? connections.series : undefined,
    broker: writesTo.mqtt ? connections.broker : undefined,
    clock,
    logger,
    onWriteError: connections.recordWriteError,
    stopTimeoutMs: 2000,
  });
  connections.addStats(() => destinations.stats());
  return { destinations, atShutdown: connections.stopWithinBudget(part, destinations) };
}
