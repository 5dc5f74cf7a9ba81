/**
 * The counters of a UDP queue: one per admission answer and processing outcome, cumulative since
 * start and never reset. The scrape endpoint publishes them as they are; the time-series point
 * turns them into deltas per write interval (udp-queue-metrics.ts).
 */
import type { DatagramOutcome } from "./event-destinations.ts";

/** Cumulative since start, never reset: received = queued + the four drops. */
export interface UdpQueueCounters {
  received: number;
  queued: number;
  /** Processor outcomes; their sum plus `failed` is what finished. */
  processed: number;
  malformed: number;
  unknownMarker: number;
  droppedByRule: number;
  /** The processor threw or rejected. */
  failed: number;
  droppedSource: number;
  droppedSize: number;
  droppedRateLimit: number;
  droppedQueueFull: number;
}

export function zeroUdpQueueCounters(): UdpQueueCounters {
  return {
    received: 0,
    queued: 0,
    processed: 0,
    malformed: 0,
    unknownMarker: 0,
    droppedByRule: 0,
    failed: 0,
    droppedSource: 0,
    droppedSize: 0,
    droppedRateLimit: 0,
    droppedQueueFull: 0,
  };
}

/** Counts one processor outcome. */
export function countOutcome(counts: UdpQueueCounters, outcome: DatagramOutcome): void {
  switch (outcome) {
    case "malformed":
      counts.malformed += 1;
      return;
    case "unknown_marker":
      counts.unknownMarker += 1;
      return;
    case "dropped_by_rule":
      counts.droppedByRule += 1;
      return;
    default:
      counts.processed += 1;
  }
}
