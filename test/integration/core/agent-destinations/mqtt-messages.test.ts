/**
 * The agent's broker destination against an aedes MQTT 3.1.1 broker on loopback: every message
 * of a call has reached the broker when the call resolves; with the broker gone, messages are
 * counted as dropped and reported, not lost silently.
 */
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMqttBrokerClient } from "../../../../core/adapters/mqtt.ts";
import { createEventDestinations } from "../../../../core/agent-destinations/create-event-destinations.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { type AedesBroker, startAedes } from "../../../helpers/aedes-broker.ts";
import { until } from "../../../helpers/eventually.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

let broker: AedesBroker;

beforeAll(async () => {
  broker = await startAedes();
});
afterAll(async () => {
  await broker.stop();
});

async function connectedBrokerClient(port: number) {
  const logger = recordingLogger();
  const brokerClient = createMqttBrokerClient({
    brokerHost: "127.0.0.1",
    brokerPort: port,
    logger,
    reconnectPeriodMs: 50,
  });
  await until(() => logger.entries.some((entry) => entry.message === "Connected to MQTT broker"));
  return { brokerClient, logger };
}

describe("agent messages through an MQTT broker", () => {
  it("has every message of a call at the broker when publish resolves", async () => {
    const subscriber = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { protocolVersion: 4 });
    const received: string[] = [];
    subscriber.on("message", (topic, payload) => received.push(`${topic} ${payload.toString()}`));
    await subscriber.subscribeAsync("qliksense/#", { qos: 1 });
    const { brokerClient } = await connectedBrokerClient(broker.port);
    const destinations = createEventDestinations({
      maxBatchSize: 1000,
      broker: brokerClient,
      clock: systemClock,
      logger: recordingLogger(),
    });
    const messages = Array.from({ length: 25 }, (_, i) => ({
      topic: `qliksense/logevent/engine/${i}`,
      payload: JSON.stringify({ n: i }),
    }));

    await destinations.writeMessages(messages);
    const statsWhenResolved = destinations.stats().mqtt;
    await until(() => received.length === 25);

    expect(statsWhenResolved).toEqual({ buffered: 0, written: 25, failedWrites: 0, dropped: 0, rejected: 0 });
    expect(received.sort()).toEqual(messages.map((m) => `${m.topic} ${m.payload}`).sort());
    await destinations.stop();
    await brokerClient.close();
    await subscriber.endAsync();
  });

  it("counts messages as dropped and warns naming the destination while the broker is down", async () => {
    const own = await startAedes();
    const { brokerClient, logger: mqttLogger } = await connectedBrokerClient(own.port);
    const logger = recordingLogger();
    const destinations = createEventDestinations({
      maxBatchSize: 1000,
      broker: brokerClient,
      clock: systemClock,
      logger,
    });
    await own.stop();
    await until(() =>
      mqttLogger.entries.some((entry) => entry.message.startsWith("MQTT broker unreachable")),
    );

    await destinations.writeMessages([
      { topic: "qliksense/a", payload: "1" },
      { topic: "qliksense/b", payload: "2" },
    ]);

    expect(destinations.stats().mqtt).toMatchObject({ written: 0, failedWrites: 2, dropped: 2 });
    expect(logger.at("warn").map((entry) => entry.fields?.destination)).toEqual(["mqtt"]);
    await destinations.stop();
    await brokerClient.close();
  });
});
