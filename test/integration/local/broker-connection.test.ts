/**
 * The process's one broker connection (local/broker-connection.ts) against Debian's mosquitto:
 * built at wiring without connecting, it connects when its service starts and closes when the
 * service stops; nothing connects for a configuration in which nothing publishes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMqttBrokerClient } from "../../../core/adapters/mqtt.ts";
import { type Config, parseConfig } from "../../../core/config/index.ts";
import { UpstreamError } from "../../../core/upstream-error.ts";
import { brokerConnection } from "../../../local/broker-connection.ts";
import { type Mosquitto, skipWithoutMosquitto, startMosquitto } from "../../helpers/mosquitto.ts";
import { recordingLogger } from "../../helpers/recording-logger.ts";

const skip = skipWithoutMosquitto();

let broker: Mosquitto;

beforeAll(async () => {
  if (skip) return;
  broker = await startMosquitto();
});
afterAll(async () => {
  await broker?.stop();
});

function configWith(service: Record<string, unknown>): Config {
  const parsed = parseConfig({ Service: service }, {});
  if (!parsed.ok) expect.fail(parsed.problems.map((p) => `${p.path}: ${p.message}`).join("\n"));
  return parsed.config;
}

const connectsOf = async (clientId: string) =>
  (await broker.log())
    .split("\n")
    .filter((line) => line.includes("New client connected") && line.includes(clientId)).length;

describe.skipIf(skip)("brokerConnection", () => {
  it("connects only when its service starts, and refuses publishes again once it stopped", async () => {
    // Prepare
    const clientId = "steward-lifetime";
    const config = configWith({
      restServer: { enable: true, endpointsEnable: { mqttPublishMessage: true } },
      mqttConfig: { enable: true, brokerHost: "127.0.0.1", brokerPort: broker.port, clientId },
    });
    const connection = brokerConnection(config, recordingLogger(), process.cwd());
    if (connection === undefined) expect.fail("a REST broker endpoint needs the connection");

    // Act
    await new Promise((resolve) => setTimeout(resolve, 300));
    const beforeStart = await connectsOf(clientId);
    const refusedBeforeStart = await connection.client.publish("t/a", "m").catch((error: unknown) => error);
    const running = await connection.part.start();
    await connection.client.publish("t/a", "m");
    await running.stop();
    const refusedAfterStop = await connection.client.publish("t/a", "m").catch((error: unknown) => error);

    // Assess
    expect(beforeStart).toBe(0);
    expect(refusedBeforeStart).toBeInstanceOf(UpstreamError);
    expect(await connectsOf(clientId)).toBe(1);
    expect(refusedAfterStop).toBeInstanceOf(UpstreamError);
  });

  it("is not built when nothing publishes, or when mqttConfig.enable is false", () => {
    const mqttConfig = { enable: true, brokerHost: "127.0.0.1", brokerPort: broker.port };
    const nothingPublishes = configWith({ restServer: { enable: true }, mqttConfig });
    const off = configWith({
      restServer: { enable: true, endpointsEnable: { mqttPublishMessage: true } },
      mqttConfig: { ...mqttConfig, enable: false },
    });

    expect(brokerConnection(nothingPublishes, recordingLogger(), process.cwd())).toBeUndefined();
    expect(brokerConnection(off, recordingLogger(), process.cwd())).toBeUndefined();
  });

  it("closes a broker client that was never opened without connecting", async () => {
    const clientId = "steward-never-opened";
    const brokerClient = createMqttBrokerClient({
      brokerHost: "127.0.0.1",
      brokerPort: broker.port,
      clientId,
      logger: recordingLogger(),
      manualConnect: true,
    });

    await brokerClient.close();
    brokerClient.open();
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(await connectsOf(clientId)).toBe(0);
  });
});
