import { describe, expect, it } from "vitest";
import { createEventDestinations } from "../../../../core/agent-destinations/create-event-destinations.ts";
import { InvalidTopicError } from "../../../../core/messaging/errors.ts";
import type { BrokerClient } from "../../../../core/ports.ts";
import { UpstreamError } from "../../../../core/upstream-error.ts";
import { createAsyncManualClock } from "../../../helpers/async-manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

/** Holds every publish until the test releases it; fails while `down`. */
function heldBrokerClient() {
  const brokerClient = {
    held: [] as { topic: string; release: () => void }[],
    published: [] as string[],
    maxInFlight: 0,
    down: false,
    async publish(topic: string, message: string) {
      if (topic.includes("#")) throw new InvalidTopicError("wildcard");
      if (brokerClient.down) throw new UpstreamError("mqtt broker", "Not connected to the MQTT broker");
      await new Promise<void>((release) => {
        brokerClient.held.push({ topic, release });
        brokerClient.maxInFlight = Math.max(brokerClient.maxInFlight, brokerClient.held.length);
      });
      brokerClient.held = brokerClient.held.filter((entry) => entry.topic !== topic);
      brokerClient.published.push(`${topic} ${message}`);
    },
    async close() {},
    releaseAll() {
      for (const entry of [...brokerClient.held]) entry.release();
    },
  } satisfies BrokerClient & Record<string, unknown>;
  return brokerClient;
}

const messages = (n: number, prefix = "t") =>
  Array.from({ length: n }, (_, i) => ({ topic: `${prefix}/${i}`, payload: `m${i}` }));

function start(brokerClient: BrokerClient) {
  const clock = createAsyncManualClock();
  const logger = recordingLogger();
  const destinations = createEventDestinations({
    maxBatchSize: 10,
    broker: brokerClient,
    clock,
    logger,
    maxInFlightMessages: 2,
  });
  return { clock, logger, destinations };
}

describe("agent destinations: broker messages", () => {
  it("resolves publish only once the broker acknowledged every message", async () => {
    const brokerClient = heldBrokerClient();
    const { clock, destinations } = start(brokerClient);

    let done = false;
    const publishing = destinations.writeMessages(messages(2)).then(() => {
      done = true;
    });
    await clock.settle();
    expect(done).toBe(false);
    brokerClient.releaseAll();
    await publishing;

    expect(brokerClient.published).toEqual(["t/0 m0", "t/1 m1"]);
    expect(destinations.stats().mqtt).toEqual({
      buffered: 0,
      written: 2,
      failedWrites: 0,
      dropped: 0,
      rejected: 0,
    });
    await destinations.stop();
  });

  it("never has more than maxInFlightMessages publishes in flight, across calls", async () => {
    const brokerClient = heldBrokerClient();
    const { clock, destinations } = start(brokerClient);

    const calls = [
      destinations.writeMessages(messages(3, "a")),
      destinations.writeMessages(messages(3, "b")),
    ];
    for (let round = 0; round < 6; round += 1) {
      await clock.settle();
      brokerClient.releaseAll();
    }
    await Promise.all(calls);

    expect(brokerClient.maxInFlight).toBe(2);
    expect(brokerClient.published).toHaveLength(6);
    await destinations.stop();
  });

  it("counts a failed publish as failed and dropped, warning at most once a minute naming the destination", async () => {
    const brokerClient = heldBrokerClient();
    brokerClient.down = true;
    const { clock, logger, destinations } = start(brokerClient);

    await destinations.writeMessages(messages(3));
    await clock.advance(60_000);
    await destinations.writeMessages(messages(1));

    expect(destinations.stats().mqtt).toEqual({
      buffered: 0,
      written: 0,
      failedWrites: 4,
      dropped: 4,
      rejected: 0,
    });
    expect(logger.at("warn").map((entry) => [entry.fields?.destination, entry.fields?.count])).toEqual([
      ["mqtt", 1],
      ["mqtt", 3],
    ]);
    await destinations.stop();
  });

  it("counts a message whose topic no broker accepts as rejected", async () => {
    const brokerClient = heldBrokerClient();
    const { logger, destinations } = start(brokerClient);

    await destinations.writeMessages([{ topic: "bad/#", payload: "x" }]);

    expect(destinations.stats().mqtt).toMatchObject({ rejected: 1, dropped: 0, failedWrites: 0 });
    expect(logger.at("error")).toHaveLength(1);
    await destinations.stop();
  });
});
