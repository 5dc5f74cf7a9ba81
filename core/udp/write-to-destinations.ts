/**
 * Hands one datagram's items to the pipeline's destinations and waits for all of them, so that the
 * queue feels a slow destination. A destination is only called with a non-empty list.
 * Every call runs to its end before a failure is reported, so no write is still in flight when
 * the queue counts the datagram as failed.
 */

import type { ObservabilityEvent } from "../ports.ts";
import type { BrokerMessage } from "../shared/broker-message.ts";
import type { Point } from "../shared/line-protocol.ts";
import type { EventDestinations } from "./event-destinations.ts";

export interface DestinationItems {
  points: Point[];
  messages: BrokerMessage[];
  events: ObservabilityEvent[];
}

export async function writeToDestinations(
  destinations: EventDestinations,
  items: DestinationItems,
): Promise<void> {
  const calls: Promise<void>[] = [];
  if (items.points.length > 0) calls.push(settle(() => destinations.writePoints(items.points)));
  if (items.messages.length > 0) calls.push(settle(() => destinations.writeMessages(items.messages)));
  if (items.events.length > 0) calls.push(settle(() => destinations.writeEvents(items.events)));
  if (calls.length === 0) return;
  if (calls.length === 1) return calls[0];
  const results = await Promise.allSettled(calls);
  const failures = results.flatMap((result) =>
    result.status === "rejected" ? [result.reason as unknown] : [],
  );
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, "several event destinations failed");
}

/** A destination that throws instead of rejecting must not keep the other destinations from being called. */
function settle(call: () => Promise<void>): Promise<void> {
  try {
    return call();
  } catch (error) {
    return Promise.reject(error);
  }
}
