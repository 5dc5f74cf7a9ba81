/**
 * The on-prem agent's platform events over UDP: a user-event pipeline when `userEvents.enable`, a
 * log-event pipeline when any `logEvents.source.*.enable`, each (udp-pipeline.ts)
 *
 *   socket → queue (source check, size, rate limit, bounded queue) → processor (parse, exclusion,
 *   enrichment, categorisation, counts, outputs) → sinks (time-series DB, broker, observability)
 *
 * plus the periodic writers of event counts, rejected-event counts and each queue's metrics, and
 * for each socket the count of datagrams the operating system dropped before they reached it.
 * Everything is chosen here once from the config. Stop order makes shutdown lossless for what
 * arrived: the kernel's drops are read a last time, the sockets stop receiving, the queues hand
 * every admitted datagram to the processors, the periodic writers write their last interval, and
 * the sinks flush their batches.
 */
import { hostname } from "node:os";
import { resolve } from "node:path";
import { loadOrCreateSecretKey } from "../../core/adapters/local/secret-key-file.ts";
import { type AgentEventSinks, createEventSinks } from "../../core/agent-sinks/create-event-sinks.ts";
import type { Config, UdpServerConfig } from "../../core/config/index.ts";
import { startPeriodicWriter } from "../../core/destinations/periodic-writer.ts";
import type { Service } from "../../core/ports.ts";
import { createEventCounts } from "../../core/udp/event-counts.ts";
import type { DatagramProcessor, EventSinks, PeriodicPoints } from "../../core/udp/event-sinks.ts";
import { createLogEventProcessor } from "../../core/udp/log-event-processor.ts";
import { createRejectedEventCounts } from "../../core/udp/rejected-event-counts.ts";
import type { UdpQueueName } from "../../core/udp/udp-queue.ts";
import { registerUdpQueueMetrics } from "../../core/udp/udp-queue-metrics.ts";
import { createUserEventProcessor } from "../../core/udp/user-event-processor.ts";
import type { AgentPartDeps } from "./agent-outputs.ts";
import { createProcNetUdpReader, type KernelDropReader } from "./kernel-drop-reader.ts";
import { observabilityFor, type SendTo, sendToOf } from "./udp-outputs.ts";
import { startUdpPipeline, type UdpPipelineView } from "./udp-pipeline.ts";

export type { UdpPipelineView } from "./udp-pipeline.ts";

/**
 * The scramble key under ./data/ resolves from `cwd`. `kernelDrops` reads the operating system's
 * per-socket drop counter (Linux's /proc/net/udp and udp6 by default).
 */
export type UdpEventsDeps = AgentPartDeps & { kernelDrops?: KernelDropReader };

export interface UdpEvents extends Service {
  readonly userEvents: UdpPipelineView | undefined;
  readonly logEvents: UdpPipelineView | undefined;
  /** Events by type and source since start (the status page). */
  eventTotals(): Record<string, number>;
}

/** Where the key that scrambles user names for the observability platform is kept. */
export const SCRAMBLE_KEY_FILE = "data/obs-platform-scramble.key";

/** True when the config asks for at least one UDP socket. */
export function udpEventsEnabled(config: Config): boolean {
  return config.userEvents.enable || Object.values(config.logEvents.source).some((source) => source.enable);
}

export async function startUdpEvents(deps: UdpEventsDeps): Promise<UdpEvents> {
  const { config, clock, metrics } = deps;
  const logger = deps.logger.child("udp");
  const userOn = config.userEvents.enable;
  const logOn = Object.values(config.logEvents.source).some((source) => source.enable);
  const host = hostname();
  const readKernelDrops = deps.kernelDrops ?? createProcNetUdpReader();
  const started: Service[] = [];
  const stopStarted = async () => {
    for (const service of started.reverse()) {
      await service.stop().catch((error: unknown) => {
        logger.error("stopping a UDP event part failed", {
          error: error instanceof Error ? error.message : String(error),
        });
      });
    }
    started.length = 0;
  };

  try {
    const { outputs } = deps;
    const { version } = config.timeseriesdbConfig;
    const eventCounts = createEventCounts({ platformEvents: config.platformEvents, version, metrics });
    const rejectedEventCounts = createRejectedEventCounts({
      platformEvents: config.platformEvents,
      trackRejectedEvents: config.logEvents.enginePerformanceMonitor.trackRejectedEvents,
      version,
    });
    const scrambleKey =
      userOn && config.userEvents.sendToObsPlatform.enable && config.userEvents.sendToObsPlatform.scramble
        ? await loadOrCreateSecretKey(resolve(deps.cwd, SCRAMBLE_KEY_FILE))
        : undefined;

    const sinksFor = (name: UdpQueueName, sendTo: SendTo): AgentEventSinks => {
      const sinks = createEventSinks({
        maxBatchSize: config.timeseriesdbConfig.maxBatchSize,
        series: sendTo.timeseriesdb ? outputs.series : undefined,
        publisher: sendTo.mqtt ? outputs.publisher : undefined,
        observability: sendTo.obsPlatform ? observabilityFor(config, sendTo, clock, logger) : undefined,
        clock,
        logger: logger.child(name),
        onWriteError: outputs.recordWriteError,
      });
      started.push(outputs.stopWithinBudget(name, sinks));
      return sinks;
    };

    const userSinks = userOn ? sinksFor("user_events", sendToOf(config, config.userEvents)) : undefined;
    const logSinks = logOn ? sinksFor("log_events", sendToOf(config, config.logEvents)) : undefined;

    const countSources: PeriodicPoints[] = [];
    if (config.platformEvents.eventCount.enable) countSources.push(eventCounts);
    if (config.platformEvents.rejectedEventCount.enable && logOn) countSources.push(rejectedEventCounts);
    if (outputs.series && config.platformEvents.timeseriesdb.enable && countSources.length > 0) {
      const writer = startPeriodicWriter({
        name: "event-counts",
        intervalMs: config.platformEvents.timeseriesdb.writeFrequency,
        sources: countSources,
        series: outputs.series,
        clock,
        logger,
      });
      started.push(outputs.addIntervalWriter("event-counts", writer));
    }

    const pipelineDeps = { outputs, host, version, readKernelDrops, clock, logger, started };
    const pipeline = (
      name: UdpQueueName,
      settings: UdpServerConfig & { port: number },
      processor: (sinks: EventSinks) => DatagramProcessor,
      sinks: AgentEventSinks,
    ): Promise<UdpPipelineView> =>
      startUdpPipeline(
        {
          name,
          label: name === "user_events" ? "User events" : "Log events",
          settings,
          processor: processor(sinks),
          sinks,
        },
        pipelineDeps,
      );

    const userEvents =
      userSinks &&
      (await pipeline(
        "user_events",
        {
          ...config.userEvents.udpServerConfig,
          port: config.userEvents.udpServerConfig.portUserActivityEvents,
        },
        (sinks) =>
          createUserEventProcessor({
            userEvents: config.userEvents,
            timeseriesdbConfig: config.timeseriesdbConfig,
            mqttConfig: config.mqttConfig,
            obsPlatform: config.obsPlatform,
            appNames: deps.appNames,
            eventCounts,
            sinks,
            ...(scrambleKey ? { scrambleKey } : {}),
            logger: logger.child("user_events"),
            clock,
          }),
        userSinks,
      ));
    const logEvents =
      logSinks &&
      (await pipeline(
        "log_events",
        { ...config.logEvents.udpServerConfig, port: config.logEvents.udpServerConfig.portLogEvents },
        (sinks) =>
          createLogEventProcessor({
            logEvents: config.logEvents,
            timeseriesdbConfig: config.timeseriesdbConfig,
            mqttConfig: config.mqttConfig,
            obsPlatform: config.obsPlatform,
            appNames: deps.appNames,
            eventCounts,
            rejectedEventCounts,
            sinks,
            logger: logger.child("log_events"),
            clock,
          }),
        logSinks,
      ));

    const pipelines = [userEvents, logEvents].filter((view) => view !== undefined);
    registerUdpQueueMetrics(
      metrics,
      pipelines.map((view) => view.queue),
      (queue) => pipelines.find((view) => view.queue === queue)?.kernelDrops.count(),
    );
    for (const view of pipelines) outputs.addStats(() => view.sinks.stats());

    let stopping: Promise<void> | undefined;
    return {
      userEvents,
      logEvents,
      eventTotals: () => eventCounts.totals(),
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
