/**
 * Error tracking of the UDP pipelines: a datagram whose processing throws is recorded as
 * `UDP_USER_EVENT` or `UDP_LOG_EVENT` (no server), then handed on to the queue, which counts and
 * logs it as before. Drops by policy (size, rate, queue full, malformed) are outcomes, not errors,
 * and are not recorded (as in Butler SOS).
 */
import type { ErrorRecorder } from "../ports.ts";
import type { DatagramProcessor } from "./event-destinations.ts";
import type { UdpQueueName } from "./udp-queue.ts";

export const UDP_ERROR_TYPES: Readonly<Record<UdpQueueName, string>> = {
  user_events: "UDP_USER_EVENT",
  log_events: "UDP_LOG_EVENT",
};

export function trackProcessorFailures(
  processor: DatagramProcessor,
  queue: UdpQueueName,
  errors: ErrorRecorder,
): DatagramProcessor {
  return async (datagram, receivedAtMs, sender) => {
    try {
      return await processor(datagram, receivedAtMs, sender);
    } catch (error) {
      errors.record(UDP_ERROR_TYPES[queue], "", error);
      throw error;
    }
  };
}
