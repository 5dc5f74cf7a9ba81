/**
 * Where a UDP pipeline writes what its datagrams become. Each method resolves once its items are
 * buffered or written (batched by size or age behind it), so that a slow destination is felt by
 * the queue and slows what it takes in, instead of items piling up in memory. One
 * EventDestinations per pipeline: user events and log events go to their own observability
 * accounts. A destination that is switched off ignores what it is given.
 */

import type { ObservabilityEvent } from "../ports.ts";
import type { BrokerMessage } from "../shared/broker-message.ts";
import type { Point } from "../shared/line-protocol.ts";

export interface EventDestinations {
  writePoints(points: readonly Point[]): Promise<void>;
  writeMessages(messages: readonly BrokerMessage[]): Promise<void>;
  writeEvents(events: readonly ObservabilityEvent[]): Promise<void>;
}

/** What became of one datagram after the queue handed it over (counted per queue). */
export type DatagramOutcome = "processed" | "malformed" | "unknown_marker" | "dropped_by_rule";

/**
 * Processes one datagram admitted by the queue; never throws for bad input (it rejects only when
 * a destination does). `sender` is the sender's IP address; it keys the throttled warnings about
 * malformed datagrams (one per sender per minute).
 */
export type DatagramProcessor = (
  datagram: Uint8Array,
  receivedAtMs: number,
  sender?: string,
) => Promise<DatagramOutcome>;
