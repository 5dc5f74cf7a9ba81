import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMqttPublisher } from "../../../../core/adapters/mqtt.ts";
import { InvalidTopicError } from "../../../../core/messaging/errors.ts";
import { UpstreamError } from "../../../../core/upstream-error.ts";
import { type AedesBroker, startAedes } from "../../../helpers/aedes-broker.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

let broker: AedesBroker;

beforeAll(async () => {
  broker = await startAedes();
});
afterAll(async () => {
  await broker.stop();
});

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("mqtt publisher against aedes (MQTT 3.1.1)", () => {
  it("publishes a message that a subscriber receives", async () => {
    const subscriber = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { protocolVersion: 4 });
    const received: { topic: string; message: string }[] = [];
    subscriber.on("message", (topic, payload) => received.push({ topic, message: payload.toString() }));
    await subscriber.subscribeAsync("steward/#", { qos: 1 });
    const logger = recordingLogger();
    const publisher = createMqttPublisher({ brokerHost: "127.0.0.1", brokerPort: broker.port, logger });
    await until(() => logger.entries.some((entry) => entry.message === "Connected to MQTT broker"));
    await publisher.publish("steward/test", "hello ✓");
    await until(() => received.length === 1);
    expect(received).toEqual([{ topic: "steward/test", message: "hello ✓" }]);
    await publisher.close();
    await subscriber.endAsync();
  });

  it("fails at once with UpstreamError while the broker is unreachable, and recovers after reconnecting", async () => {
    const own = await startAedes();
    const port = own.port;
    const logger = recordingLogger();
    const publisher = createMqttPublisher({
      brokerHost: "127.0.0.1",
      brokerPort: port,
      logger,
      reconnectPeriodMs: 50,
    });
    await until(() => logger.entries.some((entry) => entry.message === "Connected to MQTT broker"));
    await own.stop();
    await until(() => logger.entries.some((entry) => entry.message.startsWith("MQTT broker unreachable")));
    const started = Date.now();
    await expect(publisher.publish("t", "m")).rejects.toBeInstanceOf(UpstreamError);
    expect(Date.now() - started).toBeLessThan(500);
    const restarted = await startAedes(port);
    await until(
      () => logger.entries.filter((entry) => entry.message === "Connected to MQTT broker").length === 2,
    );
    await expect(publisher.publish("t", "m")).resolves.toBeUndefined();
    await publisher.close();
    await restarted.stop();
  });

  it("rejects wildcard, empty and NUL topics with InvalidTopicError", async () => {
    const publisher = createMqttPublisher({
      brokerHost: "127.0.0.1",
      brokerPort: broker.port,
      logger: recordingLogger(),
    });
    for (const topic of ["a/#", "a/+/b", "", "a\0b"]) {
      await expect(publisher.publish(topic, "m")).rejects.toBeInstanceOf(InvalidTopicError);
    }
    await publisher.close();
  });
});
