/**
 * Hands one datagram's outputs to the pipeline's sinks and waits for all of them, so that the
 * queue feels a slow destination (CONTRACT §7). A sink is only called with a non-empty list.
 * Every call runs to its end before a failure is reported, so no write is still in flight when
 * the queue counts the datagram as failed.
 */

import type { Point } from "../destinations/line-protocol.ts";
import type { ObservabilityEvent } from "../ports.ts";
import type { BrokerMessage, EventSinks } from "./event-sinks.ts";

export interface Outputs {
  points: Point[];
  messages: BrokerMessage[];
  events: ObservabilityEvent[];
}

export async function deliverOutputs(sinks: EventSinks, outputs: Outputs): Promise<void> {
  const calls: Promise<void>[] = [];
  if (outputs.points.length > 0) calls.push(settle(() => sinks.writePoints(outputs.points)));
  if (outputs.messages.length > 0) calls.push(settle(() => sinks.publish(outputs.messages)));
  if (outputs.events.length > 0) calls.push(settle(() => sinks.postEvents(outputs.events)));
  if (calls.length === 0) return;
  if (calls.length === 1) return calls[0];
  const results = await Promise.allSettled(calls);
  const failures = results.flatMap((result) =>
    result.status === "rejected" ? [result.reason as unknown] : [],
  );
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, "several event sinks failed");
}

/** A sink that throws instead of rejecting must not keep the other sinks from being called. */
function settle(call: () => Promise<void>): Promise<void> {
  try {
    return call();
  } catch (error) {
    return Promise.reject(error);
  }
}
