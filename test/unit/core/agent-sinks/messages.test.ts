import { describe, expect, it } from "vitest";
import { createEventSinks } from "../../../../core/agent-sinks/create-event-sinks.ts";
import { InvalidTopicError } from "../../../../core/messaging/errors.ts";
import type { MessagePublisher } from "../../../../core/ports.ts";
import { UpstreamError } from "../../../../core/upstream-error.ts";
import { createAsyncManualClock } from "../../../helpers/async-manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

/** Holds every publish until the test releases it; fails while `down`. */
function heldPublisher() {
  const publisher = {
    held: [] as { topic: string; release: () => void }[],
    published: [] as string[],
    maxInFlight: 0,
    down: false,
    async publish(topic: string, message: string) {
      if (topic.includes("#")) throw new InvalidTopicError("wildcard");
      if (publisher.down) throw new UpstreamError("mqtt broker", "Not connected to the MQTT broker");
      await new Promise<void>((release) => {
        publisher.held.push({ topic, release });
        publisher.maxInFlight = Math.max(publisher.maxInFlight, publisher.held.length);
      });
      publisher.held = publisher.held.filter((entry) => entry.topic !== topic);
      publisher.published.push(`${topic} ${message}`);
    },
    async close() {},
    releaseAll() {
      for (const entry of [...publisher.held]) entry.release();
    },
  } satisfies MessagePublisher & Record<string, unknown>;
  return publisher;
}

const messages = (n: number, prefix = "t") =>
  Array.from({ length: n }, (_, i) => ({ topic: `${prefix}/${i}`, payload: `m${i}` }));

function start(publisher: MessagePublisher) {
  const clock = createAsyncManualClock();
  const logger = recordingLogger();
  const sinks = createEventSinks({ maxBatchSize: 10, publisher, clock, logger, maxInFlightMessages: 2 });
  return { clock, logger, sinks };
}

describe("agent sinks: broker messages", () => {
  it("resolves publish only once the broker acknowledged every message", async () => {
    const publisher = heldPublisher();
    const { clock, sinks } = start(publisher);

    let done = false;
    const publishing = sinks.publish(messages(2)).then(() => {
      done = true;
    });
    await clock.settle();
    expect(done).toBe(false);
    publisher.releaseAll();
    await publishing;

    expect(publisher.published).toEqual(["t/0 m0", "t/1 m1"]);
    expect(sinks.stats().mqtt).toEqual({ buffered: 0, written: 2, failedWrites: 0, dropped: 0, rejected: 0 });
    await sinks.stop();
  });

  it("never has more than maxInFlightMessages publishes in flight, across calls", async () => {
    const publisher = heldPublisher();
    const { clock, sinks } = start(publisher);

    const calls = [sinks.publish(messages(3, "a")), sinks.publish(messages(3, "b"))];
    for (let round = 0; round < 6; round += 1) {
      await clock.settle();
      publisher.releaseAll();
    }
    await Promise.all(calls);

    expect(publisher.maxInFlight).toBe(2);
    expect(publisher.published).toHaveLength(6);
    await sinks.stop();
  });

  it("counts a failed publish as failed and dropped, warning at most once a minute naming the destination", async () => {
    const publisher = heldPublisher();
    publisher.down = true;
    const { clock, logger, sinks } = start(publisher);

    await sinks.publish(messages(3));
    await clock.advance(60_000);
    await sinks.publish(messages(1));

    expect(sinks.stats().mqtt).toEqual({ buffered: 0, written: 0, failedWrites: 4, dropped: 4, rejected: 0 });
    expect(logger.at("warn").map((entry) => [entry.fields?.destination, entry.fields?.count])).toEqual([
      ["mqtt", 1],
      ["mqtt", 3],
    ]);
    await sinks.stop();
  });

  it("counts a message whose topic no broker accepts as rejected", async () => {
    const publisher = heldPublisher();
    const { logger, sinks } = start(publisher);

    await sinks.publish([{ topic: "bad/#", payload: "x" }]);

    expect(sinks.stats().mqtt).toMatchObject({ rejected: 1, dropped: 0, failedWrites: 0 });
    expect(logger.at("error")).toHaveLength(1);
    await sinks.stop();
  });
});
