/**
 * A subscription of the MQTT broker client (core/adapters/mqtt.ts) against Debian's mosquitto:
 * messages under the filter arrive with their topic and bytes, others do not; a subscription
 * made before the connection is opened is made once it is; after the broker restarts (a clean
 * session forgets subscriptions) it is made again without the caller doing anything;
 * unsubscribing stops the delivery.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createMqttBrokerClient, type MqttBrokerClient } from "../../../../core/adapters/mqtt.ts";
import { until } from "../../../helpers/eventually.ts";
import { type Mosquitto, skipWithoutMosquitto, startMosquitto } from "../../../helpers/mosquitto.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

const skip = skipWithoutMosquitto();

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function broker(port?: number): Promise<Mosquitto> {
  const started = await startMosquitto(port);
  cleanups.push(() => started.stop());
  return started;
}

function client(port: number, options: { manualConnect?: boolean } = {}): MqttBrokerClient {
  const created = createMqttBrokerClient({
    brokerHost: "127.0.0.1",
    brokerPort: port,
    logger: recordingLogger(),
    reconnectPeriodMs: 100,
    connectWaitMs: 5000,
    ...options,
  });
  cleanups.push(() => created.close());
  return created;
}

describe.skipIf(skip)("MqttBrokerClient.subscribe", () => {
  it("hands over the messages under its filter, with topic and bytes, and no others", async () => {
    const mosquitto = await broker();
    const subscriber = client(mosquitto.port, { manualConnect: true });
    const received: [string, string][] = [];
    subscriber.subscribe("qliksense/#", (topic, payload) => received.push([topic, payload.toString("utf8")]));
    subscriber.open();
    expect(await subscriber.whenConnected(5000)).toBe(true);
    const publisher = client(mosquitto.port);
    // The SUBACK may come a little after the connection: publish until the first message arrives.
    await until(async () => {
      await publisher.publish("qliksense/start_task", "first");
      return received.length > 0;
    });
    await publisher.publish("elsewhere/start_task", "not for it");
    await publisher.publish("qliksense/start_task", "second");
    await until(() => received.some(([, text]) => text === "second"));
    expect(received.filter(([topic]) => topic !== "qliksense/start_task")).toEqual([]);
    expect(received.at(-1)).toEqual(["qliksense/start_task", "second"]);
  });

  it("subscribes again after the broker restarts, and stops delivering once unsubscribed", async () => {
    const first = await broker();
    const subscriber = client(first.port);
    const received: string[] = [];
    const subscription = subscriber.subscribe("a/b", (_topic, payload) => received.push(payload.toString()));
    const publisher = client(first.port);
    await until(async () => {
      await publisher.publish("a/b", "before").catch(() => undefined);
      return received.includes("before");
    });
    await first.stop();
    const second = await broker(first.port);
    await until(async () => {
      await publisher.publish("a/b", "after").catch(() => undefined);
      return received.includes("after");
    }, 10_000);
    subscription.unsubscribe();
    const count = received.length;
    await publisher.publish("a/b", "unsubscribed");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received.length).toBe(count);
    expect(second.port).toBe(first.port);
  });
});
