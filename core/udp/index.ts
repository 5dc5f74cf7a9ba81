/**
 * The UDP module's only door: code outside core/udp/ imports this file and nothing else of the
 * module, so its files can be rearranged without touching their users. It gives what the UDP
 * listeners are made of: the admission queue of a socket (source check, size, rate, bounded
 * queue) and its counters and metrics, the datagrams' field layouts and their one parser, the
 * user-event and log-event processors and the destinations they write to, the event and
 * rejected-event counts, the sender warnings and the kernel's drops.
 */
export { applyLayout, isUuidText, splitFields } from "./apply-layout.ts";
export { createDatagramDecoder, markerOf } from "./datagram-text.ts";
export { createEventCounts, type EventCounts } from "./event-counts.ts";
export type { DatagramOutcome, DatagramProcessor, EventDestinations } from "./event-destinations.ts";
export {
  ENGINE_LAYOUT,
  type Layout,
  PROXY_LAYOUT,
  REPOSITORY_LAYOUT,
  SCHEDULER_LAYOUT,
  TASK_EVENT_LAYOUT,
  USER_SESSION_LAYOUT,
  wireIndexOf,
} from "./field-layouts.ts";
export { type KernelDropCount, type KernelDrops, startKernelDrops } from "./kernel-drops.ts";
export { createLogEventProcessor } from "./log-event-processor.ts";
export { type KernelDropsReading, procNetUdpDrops, type UdpSocketAddress } from "./proc-net-udp.ts";
export { createRejectedEventCounts, type RejectedEventCounts } from "./rejected-event-counts.ts";
export { sanitiseField } from "./sanitise-field.ts";
export { createSenderWarnings } from "./sender-warnings.ts";
export { createSourceValidator, type HostResolver } from "./source-validator.ts";
export { trackProcessorFailures } from "./tracked-processor.ts";
export { createUdpQueue, type UdpQueue, type UdpQueueName, type UdpQueueState } from "./udp-queue.ts";
export type { UdpQueueCounters } from "./udp-queue-counters.ts";
export { registerUdpQueueMetrics, udpQueueMetricsPoints } from "./udp-queue-metrics.ts";
export { isoTimestampMs } from "./udp-timestamps.ts";
export { createUserEventProcessor } from "./user-event-processor.ts";
