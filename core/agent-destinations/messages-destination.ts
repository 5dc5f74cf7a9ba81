/**
 * The broker destination of a UDP pipeline: each message is published through the BrokerClient (QoS
 * 1: the broker acknowledges it) and `write` resolves when all of its messages are settled, so a
 * slow broker is felt by the UDP queue. At most `maxInFlight` publishes run at once across all
 * callers. A message whose publish fails is not retried (the broker fails at once while
 * disconnected and reconnects on its own): it is counted as a failed write and dropped, with a WARN
 * naming the destination at most once a minute. A message whose topic no broker accepts is counted
 * as rejected. `stop()` waits for the publishes in flight within `stopTimeoutMs`, or until
 * `abandon()` (the shutdown's deadline).
 */

import { BatcherStoppedError, UnwrittenItemsError } from "../destinations/index.ts";
import type { LogThrottle } from "../logging/index.ts";
import { InvalidTopicError } from "../messaging/errors.ts";
import type { BrokerClient, Clock, Logger, TimerHandle } from "../ports.ts";
import type { BrokerMessage } from "../shared/broker-message.ts";
import { describeError } from "../shared/describe-error.ts";
import type { AgentDestination } from "./batched-destination.ts";
import { createConcurrencyLimit } from "./concurrency-limit.ts";

export interface MessagesDestinationOptions {
  broker: BrokerClient;
  maxInFlight: number;
  stopTimeoutMs: number;
  /** Told of every failed publish (error tracking). */
  onWriteError?: ((error: unknown) => void) | undefined;
  clock: Clock;
  logger: Logger;
  throttle: LogThrottle;
}

const DESTINATION = "mqtt";

export function startMessagesDestination(
  options: MessagesDestinationOptions,
): AgentDestination<BrokerMessage> {
  const { broker, clock, logger, throttle } = options;
  const limit = createConcurrencyLimit(options.maxInFlight);
  const stats = { buffered: 0, written: 0, failedWrites: 0, dropped: 0, rejected: 0 };
  const calls = new Set<Promise<void>>();
  let stopped: Promise<void> | undefined;
  let abandoned = false;
  let settleAbandonment: () => void = () => undefined;
  const abandonment = new Promise<boolean>((resolve) => {
    settleAbandonment = () => resolve(true);
  });

  function report(kind: "failed" | "rejected", message: BrokerMessage, error: unknown): void {
    const count = throttle.admit(`${DESTINATION}:${kind}`, clock.now());
    if (count === undefined) return;
    const fields = { destination: DESTINATION, count, topic: message.topic, error: describeError(error) };
    if (kind === "rejected") logger.error("the destination cannot take a message's topic; rejected", fields);
    else logger.warn("publishing to the destination failed; message dropped", fields);
  }

  async function publishOne(message: BrokerMessage): Promise<void> {
    try {
      await limit.run(() => broker.publish(message.topic, message.payload));
      stats.written += 1;
    } catch (error) {
      if (error instanceof InvalidTopicError) {
        stats.rejected += 1;
        report("rejected", message, error);
      } else {
        options.onWriteError?.(error);
        stats.failedWrites += 1;
        stats.dropped += 1;
        report("failed", message, error);
      }
    } finally {
      stats.buffered -= 1;
    }
  }

  async function settle(): Promise<void> {
    let deadline: TimerHandle | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      deadline = clock.setTimeout(() => resolve(true), options.stopTimeoutMs);
    });
    const gaveUp = await Promise.race([Promise.all(calls).then(() => false), timedOut, abandonment]);
    clock.clearTimeout(deadline);
    if (gaveUp && stats.buffered > 0) throw new UnwrittenItemsError(DESTINATION, stats.buffered, "messages");
  }

  return {
    async write(messages) {
      if (stopped !== undefined || abandoned) {
        throw new BatcherStoppedError(`${DESTINATION} writer is stopping; messages not accepted`);
      }
      stats.buffered += messages.length;
      const call = Promise.all(messages.map(publishOne)).then(() => undefined);
      calls.add(call);
      try {
        await call;
      } finally {
        calls.delete(call);
      }
    },
    stats: () => ({ ...stats }),
    stop() {
      stopped ??= settle();
      return stopped;
    },
    abandon() {
      abandoned = true;
      settleAbandonment();
    },
  };
}
