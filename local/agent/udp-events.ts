/**
 * The on-prem agent's platform events over UDP (CONTRACT §7): a user-event pipeline when
 * `userEvents.enable`, a log-event pipeline when any `logEvents.source.*.enable`, each
 *
 *   socket → queue (source check, size, rate limit, bounded queue) → processor (parse, exclusion,
 *   enrichment, categorisation, counts, outputs) → sinks (time-series DB, broker, observability)
 *
 * plus the periodic writers of event counts, rejected-event counts and each queue's metrics.
 * Everything is chosen here once from the config. Stop order makes shutdown lossless for what
 * arrived: the sockets stop receiving, the queues hand every admitted datagram to the processors,
 * the periodic writers write their last interval, and the sinks flush their batches.
 */
import { hostname } from "node:os";
import { resolve } from "node:path";
import { dnsHostResolver } from "../../core/adapters/local/dns-host-resolver.ts";
import { loadOrCreateSecretKey } from "../../core/adapters/local/secret-key-file.ts";
import { type AgentEventSinks, createEventSinks } from "../../core/agent-sinks/create-event-sinks.ts";
import type { Config, UdpServerConfig } from "../../core/config/index.ts";
import { startPeriodicWriter } from "../../core/destinations/periodic-writer.ts";
import type { Service } from "../../core/ports.ts";
import { createEventCounts } from "../../core/udp/event-counts.ts";
import type { DatagramProcessor, EventSinks, PeriodicPoints } from "../../core/udp/event-sinks.ts";
import { createLogEventProcessor } from "../../core/udp/log-event-processor.ts";
import { createRejectedEventCounts } from "../../core/udp/rejected-event-counts.ts";
import { createSourceValidator } from "../../core/udp/source-validator.ts";
import { trackProcessorFailures } from "../../core/udp/tracked-processor.ts";
import { createUdpQueue, type UdpQueue, type UdpQueueName } from "../../core/udp/udp-queue.ts";
import { registerUdpQueueMetrics, udpQueueMetricsPoints } from "../../core/udp/udp-queue-metrics.ts";
import { createUserEventProcessor } from "../../core/udp/user-event-processor.ts";
import type { AgentPartDeps } from "./agent-outputs.ts";
import { observabilityFor, type SendTo, sendToOf } from "./udp-outputs.ts";
import { type BoundUdpSocket, bindUdpSocket } from "./udp-socket.ts";

/** The scramble key under ./data/ resolves from `cwd`. */
export type UdpEventsDeps = AgentPartDeps;

export interface UdpPipelineView {
  readonly queue: UdpQueue;
  readonly socket: BoundUdpSocket;
  readonly sinks: AgentEventSinks;
}

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
      started.push(sinks);
      return sinks;
    };

    const userSinks = userOn ? sinksFor("user_events", sendToOf(config, config.userEvents)) : undefined;
    const logSinks = logOn ? sinksFor("log_events", sendToOf(config, config.logEvents)) : undefined;

    const countSources: PeriodicPoints[] = [];
    if (config.platformEvents.eventCount.enable) countSources.push(eventCounts);
    if (config.platformEvents.rejectedEventCount.enable && logOn) countSources.push(rejectedEventCounts);
    if (outputs.series && config.platformEvents.timeseriesdb.enable && countSources.length > 0) {
      started.push(
        startPeriodicWriter({
          name: "event-counts",
          intervalMs: config.platformEvents.timeseriesdb.writeFrequency,
          sources: countSources,
          series: outputs.series,
          clock,
          logger,
        }),
      );
    }

    const pipeline = async (
      name: UdpQueueName,
      settings: UdpServerConfig & { port: number },
      processor: (sinks: EventSinks) => DatagramProcessor,
      sinks: AgentEventSinks,
    ): Promise<UdpPipelineView> => {
      const pipelineLogger = logger.child(name);
      const sources = await createSourceValidator(
        { enable: settings.enableSourceValidation, allowedSources: settings.allowedSources, label: name },
        { resolve: dnsHostResolver, logger: pipelineLogger },
      );
      const queue = createUdpQueue(
        { name, config: settings },
        {
          processor: trackProcessorFailures(processor(sinks), name, outputs.errors),
          sources,
          clock,
          logger: pipelineLogger,
          elapsedMs: () => performance.now(),
        },
      );
      // Stopped in reverse: socket, then the queue drains, then its metrics' last interval.
      const queueMetrics = settings.queueMetrics.timeseriesdb;
      if (outputs.series && queueMetrics.enable) {
        started.push(
          startPeriodicWriter({
            name: `${name}-queue-metrics`,
            intervalMs: queueMetrics.writeFrequency,
            sources: [udpQueueMetricsPoints(queue, { config: queueMetrics, host, version })],
            series: outputs.series,
            clock,
            logger: pipelineLogger,
          }),
        );
      }
      started.push(queue);
      const socket = await bindUdpSocket({
        name: name === "user_events" ? "User events" : "Log events",
        host: settings.serverHost,
        port: settings.port,
        receiveBufferBytes: settings.receiveBufferBytes,
        logger: pipelineLogger,
        onDatagram: (datagram, sender) => queue.offer(datagram, sender, clock.now()),
      });
      started.push({ stop: () => socket.close() });
      return { queue, socket, sinks };
    };

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
