/**
 * One UDP listener of the agent: source validation, the bounded queue in front of its processor,
 * the queue's metrics writer, the socket, and the count of datagrams the operating system dropped
 * for that socket. udp-events.ts starts one per socket it is configured for (user events, log
 * events, and any later kind of event gets the same parts by calling this).
 *
 * Each part is appended to `started` as soon as it runs, so that a failure part-way (a port that
 * cannot be bound) stops what already started, and so that stopping in reverse order is
 * lossless: the kernel's drops are read a last time, the socket stops receiving, the queue hands
 * every admitted datagram to the processor, then the metrics writer writes its last interval.
 */
import { dnsHostResolver } from "../../core/adapters/local/dns-host-resolver.ts";
import type { AgentEventDestinations } from "../../core/agent-destinations/index.ts";
import type { TimeseriesdbVersion, UdpServerConfig } from "../../core/config/index.ts";
import { startPeriodicWriter } from "../../core/destinations/periodic-writer.ts";
import type { Clock, Logger, Stoppable } from "../../core/ports.ts";
import type { DatagramProcessor } from "../../core/udp/event-destinations.ts";
import { type KernelDrops, startKernelDrops } from "../../core/udp/kernel-drops.ts";
import { createSourceValidator } from "../../core/udp/source-validator.ts";
import { trackProcessorFailures } from "../../core/udp/tracked-processor.ts";
import { createUdpQueue, type UdpQueue, type UdpQueueName } from "../../core/udp/udp-queue.ts";
import { udpQueueMetricsPoints } from "../../core/udp/udp-queue-metrics.ts";
import type { WritingPartDeps } from "./agent-connections.ts";
import type { KernelDropReader } from "./kernel-drop-reader.ts";
import { type BoundUdpSocket, bindUdpSocket } from "./udp-socket.ts";

/** A listener: its socket, its queue and what the operating system dropped for it. */
export interface UdpListenerView {
  readonly queue: UdpQueue;
  readonly socket: BoundUdpSocket;
  /** Datagrams the operating system dropped for the socket since it was bound. */
  readonly kernelDrops: KernelDrops;
}

export interface UdpPipelineView extends UdpListenerView {
  readonly destinations: AgentEventDestinations;
}

export interface UdpListenerOptions {
  name: UdpQueueName;
  /** For log lines and errors, e.g. "User events". */
  label: string;
  settings: UdpServerConfig & { port: number };
  processor: DatagramProcessor;
  /** Told of a socket error after binding (udp-socket.ts). */
  onSocketError?(error: Error): void;
}

export interface UdpPipelineOptions extends UdpListenerOptions {
  destinations: AgentEventDestinations;
}

export interface UdpPipelineDeps {
  connections: Pick<WritingPartDeps["connections"], "series" | "errors" | "addIntervalWriter">;
  /** The `host` tag of the queue metrics. */
  host: string;
  /** `timeseriesdbConfig.version`: decides the queue metrics fields' types. */
  version: TimeseriesdbVersion;
  readKernelDrops: KernelDropReader;
  clock: Clock;
  logger: Logger;
  started: Stoppable[];
}

/** A listener whose processor writes to event destinations (user and log events). */
export async function startUdpPipeline(
  options: UdpPipelineOptions,
  deps: UdpPipelineDeps,
): Promise<UdpPipelineView> {
  return { ...(await startUdpListener(options, deps)), destinations: options.destinations };
}

/** A listener with every guarantee of the pipeline; what its processor does with a datagram is its own. */
export async function startUdpListener(
  options: UdpListenerOptions,
  deps: UdpPipelineDeps,
): Promise<UdpListenerView> {
  const { name, settings } = options;
  const { connections, clock, started } = deps;
  const logger = deps.logger.child(name);
  const sources = await createSourceValidator(
    { enable: settings.enableSourceValidation, allowedSources: settings.allowedSources, label: name },
    { resolve: dnsHostResolver, logger, clock },
  );
  started.push(sources);
  const queue = createUdpQueue(
    { name, config: settings },
    {
      processor: trackProcessorFailures(options.processor, name, connections.errors),
      sources,
      clock,
      logger,
      elapsedMs: () => performance.now(),
    },
  );
  // The writer's last interval comes after the kernel's drops were read a last time at their stop.
  let kernelDrops: KernelDrops | undefined;
  const queueMetrics = settings.queueMetrics.timeseriesdb;
  if (connections.series && queueMetrics.enable) {
    const writerName = `${name}-queue-metrics`;
    const writer = startPeriodicWriter({
      name: writerName,
      intervalMs: queueMetrics.writeFrequency,
      sources: [
        udpQueueMetricsPoints(queue, {
          config: queueMetrics,
          host: deps.host,
          version: deps.version,
          kernelDrops: () => kernelDrops?.count() ?? { dropped: null, reason: "the socket is not bound yet" },
        }),
      ],
      series: connections.series,
      clock,
      logger,
    });
    started.push(connections.addIntervalWriter(writerName, writer));
  }
  started.push(queue);
  const socket = await bindUdpSocket({
    name: options.label,
    host: settings.serverHost,
    port: settings.port,
    receiveBufferBytes: settings.receiveBufferBytes,
    logger,
    onDatagram: (datagram, sender) => queue.offer(datagram, sender, clock.now()),
    onError: options.onSocketError,
  });
  started.push({ stop: () => socket.close() });
  kernelDrops = startKernelDrops(
    { label: name },
    { read: () => deps.readKernelDrops(socket), clock, logger },
  );
  started.push(kernelDrops);
  return { queue, socket, kernelDrops };
}
