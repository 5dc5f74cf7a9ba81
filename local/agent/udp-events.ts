/**
 * The on-prem agent's platform events over UDP: a user-event pipeline when `userEvents.enable`, a
 * log-event pipeline when any `logEvents.source.*.enable`, each (udp-pipeline.ts)
 *
 *   socket → queue (source check, size, rate limit, bounded queue) → processor (parse, exclusion,
 *   enrichment, categorisation, counts, items) → destinations (time-series DB, broker, observability)
 *
 * plus the periodic writers of event counts, rejected-event counts and each queue's metrics, and
 * for each socket the count of datagrams the operating system dropped before they reached it.
 * Everything is chosen here once from the config. Stop order makes shutdown lossless for what
 * arrived: the kernel's drops are read a last time, the sockets stop receiving, the queues hand
 * every admitted datagram to the processors, the periodic writers write their last interval, and
 * the destinations flush their batches.
 */
import { hostname } from "node:os";
import { resolve } from "node:path";
import { loadOrCreateSecretKey } from "../../core/adapters/local/secret-key-file.ts";
import { type AgentEventDestinations, createEventDestinations } from "../../core/agent-destinations/index.ts";
import {
  logEventsEnabled,
  type PipelineDestinations,
  pipelineDestinations,
  udpEventsEnabled,
} from "../../core/config/index.ts";
import { startPeriodicWriter } from "../../core/destinations/periodic-writer.ts";
import type { Logger, Stoppable } from "../../core/ports.ts";
import type { PeriodicPoints } from "../../core/shared/periodic-points.ts";
import { createEventCounts, type EventCounts } from "../../core/udp/event-counts.ts";
import { createLogEventProcessor } from "../../core/udp/log-event-processor.ts";
import { createRejectedEventCounts, type RejectedEventCounts } from "../../core/udp/rejected-event-counts.ts";
import type { UdpQueueName } from "../../core/udp/udp-queue.ts";
import { registerUdpQueueMetrics } from "../../core/udp/udp-queue-metrics.ts";
import { createUserEventProcessor } from "../../core/udp/user-event-processor.ts";
import type { WritingPartDeps } from "./agent-connections.ts";
import type { WritingAgentPart } from "./agent-part.ts";
import { createProcNetUdpReader, type KernelDropReader } from "./kernel-drop-reader.ts";
import { observabilityFor } from "./udp-destinations.ts";
import { startUdpPipeline, type UdpPipelineDeps, type UdpPipelineView } from "./udp-pipeline.ts";
import { showUdpStatus } from "./udp-status.ts";

export type { UdpPipelineView } from "./udp-pipeline.ts";

/**
 * The scramble key under ./data/ resolves from `cwd`. `kernelDrops` reads the operating system's
 * per-socket drop counter (Linux's /proc/net/udp and udp6 by default).
 */
export type UdpEventsDeps = WritingPartDeps & { kernelDrops?: KernelDropReader };

export interface UdpEvents extends Stoppable {
  readonly userEvents: UdpPipelineView | undefined;
  readonly logEvents: UdpPipelineView | undefined;
  /** Events by type and source since start (the status page). */
  eventTotals(): Record<string, number>;
}

/** Where the key that scrambles user names for the observability platform is kept. */
export const SCRAMBLE_KEY_FILE = "data/obs-platform-scramble.key";

/** The UDP events as an agent part: on the status page, its listeners, queues, destinations and counts. */
export const udpEventsPart: WritingAgentPart = {
  name: "udp-events",
  enabled: udpEventsEnabled,
  writes: true,
  async start(deps) {
    const udp = await startUdpEvents(deps);
    showUdpStatus(deps.status, udp);
    return udp;
  },
};

export async function startUdpEvents(deps: UdpEventsDeps): Promise<UdpEvents> {
  const logger = deps.logger.child("udp");
  const started: Stoppable[] = [];
  const stopStarted = async () => {
    for (const part of started.reverse()) {
      await part.stop().catch((error: unknown) => {
        logger.error("stopping a UDP event part failed", {
          error: error instanceof Error ? error.message : String(error),
        });
      });
    }
    started.length = 0;
  };

  try {
    const udp = await prepareUdp(deps, logger, started);
    const userEvents = udp.userDestinations && (await startUserEvents(udp, udp.userDestinations));
    const logEvents = udp.logDestinations && (await startLogEvents(udp, udp.logDestinations));
    const pipelines = [userEvents, logEvents].filter((view) => view !== undefined);
    registerUdpQueueMetrics(
      deps.metrics,
      pipelines.map((view) => view.queue),
      (queue) => pipelines.find((view) => view.queue === queue)?.kernelDrops.count(),
      udp.pipelineDeps.readKernelDrops.platformReports,
    );
    for (const view of pipelines) deps.connections.addStats(() => view.destinations.stats());

    let stopping: Promise<void> | undefined;
    return {
      userEvents,
      logEvents,
      eventTotals: () => udp.eventCounts.totals(),
      stop: () => {
        stopping ??= stopStarted();
        return stopping;
      },
    };
  } catch (error) {
    await stopStarted();
    throw error;
  }
}

/** What both pipelines share, made before either starts; everything started goes on `started`. */
interface PreparedUdp {
  deps: UdpEventsDeps;
  logger: Logger;
  eventCounts: EventCounts;
  rejectedEventCounts: RejectedEventCounts;
  scrambleKey: Uint8Array | undefined;
  userDestinations: AgentEventDestinations | undefined;
  logDestinations: AgentEventDestinations | undefined;
  pipelineDeps: UdpPipelineDeps;
}

/**
 * The event counts, the scramble key, each pipeline's destinations and the writer of the counts, in
 * this order (stopped in reverse: the counts' last interval is written before the destinations flush).
 */
async function prepareUdp(deps: UdpEventsDeps, logger: Logger, started: Stoppable[]): Promise<PreparedUdp> {
  const { config, clock, metrics, connections } = deps;
  const userOn = config.userEvents.enable;
  const logOn = logEventsEnabled(config);
  const userWritesTo = pipelineDestinations(config, config.userEvents);
  const { version } = config.timeseriesdbConfig;
  const eventCounts = createEventCounts({ platformEvents: config.platformEvents, version, metrics });
  const rejectedEventCounts = createRejectedEventCounts({
    platformEvents: config.platformEvents,
    trackRejectedEvents: config.logEvents.enginePerformanceMonitor.trackRejectedEvents,
    version,
  });
  // Only for events that go to the observability platform: the master switch counts too.
  const scrambleKey =
    userOn && userWritesTo.obsPlatform && config.userEvents.sendToObsPlatform.scramble
      ? await loadOrCreateSecretKey(resolve(deps.cwd, SCRAMBLE_KEY_FILE))
      : undefined;

  const destinationsFor = (name: UdpQueueName, writesTo: PipelineDestinations): AgentEventDestinations => {
    const destinations = createEventDestinations({
      maxBatchSize: config.timeseriesdbConfig.maxBatchSize,
      series: writesTo.timeseriesdb ? connections.series : undefined,
      broker: writesTo.mqtt ? connections.broker : undefined,
      observability: writesTo.obsPlatform ? observabilityFor(config, writesTo, clock, logger) : undefined,
      clock,
      logger: logger.child(name),
      onWriteError: connections.recordWriteError,
    });
    started.push(connections.stopWithinBudget(name, destinations));
    return destinations;
  };
  const userDestinations = userOn ? destinationsFor("user_events", userWritesTo) : undefined;
  const logDestinations = logOn
    ? destinationsFor("log_events", pipelineDestinations(config, config.logEvents))
    : undefined;

  const countSources: PeriodicPoints[] = [];
  if (config.platformEvents.eventCount.enable) countSources.push(eventCounts);
  if (config.platformEvents.rejectedEventCount.enable && logOn) countSources.push(rejectedEventCounts);
  if (connections.series && config.platformEvents.timeseriesdb.enable && countSources.length > 0) {
    const writer = startPeriodicWriter({
      name: "event-counts",
      intervalMs: config.platformEvents.timeseriesdb.writeFrequency,
      sources: countSources,
      series: connections.series,
      clock,
      logger,
    });
    started.push(connections.addIntervalWriter("event-counts", writer));
  }
  const readKernelDrops = deps.kernelDrops ?? createProcNetUdpReader();
  const pipelineDeps = { connections, host: hostname(), version, readKernelDrops, clock, logger, started };
  return {
    deps,
    logger,
    eventCounts,
    rejectedEventCounts,
    scrambleKey,
    userDestinations,
    logDestinations,
    pipelineDeps,
  };
}

function startUserEvents(udp: PreparedUdp, destinations: AgentEventDestinations): Promise<UdpPipelineView> {
  const { config, clock } = udp.deps;
  const settings = config.userEvents.udpServerConfig;
  const processor = createUserEventProcessor({
    userEvents: config.userEvents,
    timeseriesdbConfig: config.timeseriesdbConfig,
    mqttConfig: config.mqttConfig,
    obsPlatform: config.obsPlatform,
    appNames: udp.deps.appNames,
    eventCounts: udp.eventCounts,
    destinations,
    ...(udp.scrambleKey ? { scrambleKey: udp.scrambleKey } : {}),
    logger: udp.logger.child("user_events"),
    clock,
  });
  return startUdpPipeline(
    {
      name: "user_events",
      label: "User events",
      settings: { ...settings, port: settings.portUserActivityEvents },
      processor,
      destinations,
    },
    udp.pipelineDeps,
  );
}

function startLogEvents(udp: PreparedUdp, destinations: AgentEventDestinations): Promise<UdpPipelineView> {
  const { config, clock } = udp.deps;
  const settings = config.logEvents.udpServerConfig;
  const processor = createLogEventProcessor({
    logEvents: config.logEvents,
    timeseriesdbConfig: config.timeseriesdbConfig,
    mqttConfig: config.mqttConfig,
    obsPlatform: config.obsPlatform,
    appNames: udp.deps.appNames,
    eventCounts: udp.eventCounts,
    rejectedEventCounts: udp.rejectedEventCounts,
    destinations,
    logger: udp.logger.child("log_events"),
    clock,
  });
  return startUdpPipeline(
    {
      name: "log_events",
      label: "Log events",
      settings: { ...settings, port: settings.portLogEvents },
      processor,
      destinations,
    },
    udp.pipelineDeps,
  );
}
