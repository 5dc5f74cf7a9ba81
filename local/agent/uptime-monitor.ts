/**
 * The agent's uptime monitor: on every occurrence of
 * `uptimeMonitor.frequency` (later.js text or cron, UTC) it logs the uptime line at
 * `uptimeMonitor.logLevel`, writes the `steward_memory_usage` point (when `timeseriesdbConfig.enable`
 * and `storeInTimeseriesdb.serviceMemoryUsage`) and posts the `qs_service*` metrics to
 * `storeObsPlatform.destinationAccount` (when `storeObsPlatform.enable` **and**
 * `obsPlatform.enable`: the master switch holds here as everywhere else), through destinations
 * of its own whose failures are error-tracked.
 */
import { observabilityClientFor } from "../../core/adapters/observability-client-for.ts";
import { createEventDestinations } from "../../core/agent-destinations/index.ts";
import {
  type MemorySample,
  memoryPoint,
  uptimeLogLine,
  uptimeMetricBatch,
} from "../../core/monitoring/uptime-report.ts";
import { selectAccounts } from "../../core/observability/observability.ts";
import type { Logger, Stoppable } from "../../core/ports.ts";
import { startRecurringTimer } from "../../core/schedules/index.ts";
import { parseRecurrence, typicalIntervalMs } from "../../core/shared/recurrence.ts";
import { SERVICE_VERSION } from "../../core/version.ts";
import type { WritingPartDeps } from "./agent-connections.ts";
import type { WritingAgentPart } from "./agent-part.ts";

export interface UptimeMonitorDeps
  extends Pick<WritingPartDeps, "config" | "logger" | "clock" | "connections"> {
  /** The process's memory now (default process.memoryUsage()). */
  memory?: (() => MemorySample) | undefined;
  /** Milliseconds since the process started (default process.uptime()). */
  uptimeMs?: (() => number) | undefined;
  /** Web fetch for the observability platform (tests inject one). */
  fetch?: typeof fetch | undefined;
}

export interface UptimeMonitor extends Stoppable {
  /** Reports made so far. */
  iterations(): number;
}

/** The monitor's own destinations: the memory point to the time-series DB, the metrics to the observability platform. */
function uptimeDestinations(
  deps: UptimeMonitorDeps,
  { obsOn, seriesOn, logger }: { obsOn: boolean; seriesOn: boolean; logger: Logger },
) {
  const { config, clock, connections } = deps;
  const store = config.uptimeMonitor.storeObsPlatform;
  const accounts = obsOn
    ? selectAccounts(config.thirdPartyToolsCredentials.obsPlatform, store.destinationAccount).accounts
    : [];
  return createEventDestinations({
    maxBatchSize: config.timeseriesdbConfig.maxBatchSize,
    series: seriesOn ? connections.series : undefined,
    obsMetrics: obsOn
      ? {
          client: observabilityClientFor(
            { kind: "metrics", obsPlatform: config.obsPlatform, accounts },
            { clock, fetch: deps.fetch },
          ),
          accounts,
        }
      : undefined,
    clock,
    logger,
    onWriteError: connections.recordWriteError,
    // One point and one metric batch per occurrence: little to flush, so little to wait for.
    stopTimeoutMs: 2000,
  });
}

export function startUptimeMonitor(deps: UptimeMonitorDeps): UptimeMonitor {
  const { config, clock, connections } = deps;
  const settings = config.uptimeMonitor;
  const logger = deps.logger.child("uptime");
  const memory = deps.memory ?? (() => process.memoryUsage());
  const uptimeMs = deps.uptimeMs ?? (() => process.uptime() * 1000);
  const recurrence = parseRecurrence(settings.frequency);
  const store = settings.storeObsPlatform;
  const obsOn = store.enable && config.obsPlatform.enable;
  const seriesOn = connections.series !== undefined && settings.storeInTimeseriesdb.serviceMemoryUsage;
  const destinations = uptimeDestinations(deps, { obsOn, seriesOn, logger });
  connections.addStats(() => destinations.stats());
  const destinationsAtShutdown = connections.stopWithinBudget("uptime", destinations);
  const attributes: Record<string, string> = Object.fromEntries(
    store.attribute.static.map((a) => [a.name, a.value]),
  );
  if (store.attribute.dynamic.serviceVersion.enable) attributes.serviceVersion = SERVICE_VERSION;
  let iteration = 0;

  async function report(): Promise<void> {
    iteration += 1;
    const at = clock.now();
    const sample = memory();
    const up = uptimeMs();
    logger[settings.logLevel]("--------------------------------");
    logger[settings.logLevel](uptimeLogLine(iteration, up, sample));
    const writes: Promise<void>[] = [];
    if (seriesOn) {
      writes.push(
        destinations.writePoints([
          memoryPoint(sample, settings.storeInTimeseriesdb.instanceTag, SERVICE_VERSION, at),
        ]),
      );
    }
    const batch = obsOn
      ? uptimeMetricBatch(sample, up, at, {
          memory: store.metric.dynamic.serviceMemoryUsage.enable,
          uptime: store.metric.dynamic.serviceUptime.enable,
          attributes,
          intervalMs: typicalIntervalMs(recurrence, at) ?? 0,
        })
      : undefined;
    if (batch !== undefined) writes.push(destinations.writeMetrics([batch]));
    await Promise.all(writes);
  }

  logger.info("uptime monitor started", { frequency: settings.frequency });
  const timer = startRecurringTimer({
    what: "uptime report",
    recurrence,
    runAtStart: false,
    run: report,
    clock,
    logger,
  });
  return {
    iterations: () => iteration,
    async stop() {
      await timer.stop();
      await destinationsAtShutdown.stop();
    },
  };
}

/** The uptime monitor as an agent part (`uptimeMonitor.enable`); its destinations write through the shared connections. */
export const uptimeMonitorPart: WritingAgentPart = {
  name: "uptime-monitor",
  enabled: (config) => config.uptimeMonitor.enable,
  writes: true,
  start: async ({ config, logger, clock, connections }) =>
    startUptimeMonitor({ config, logger, clock, connections }),
};
