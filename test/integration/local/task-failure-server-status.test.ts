/**
 * The task-event listener's status on the broker through a real `steward start`, with mosquitto
 * on loopback and the simulated platform: `start` on Butler's topic once the listener listens,
 * `error` when its port cannot be bound (and the start still fails with exit 1), and nothing when
 * the topic is set empty.
 */
import { createSocket } from "node:dgram";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { startTestPlatform, type TestPlatform } from "../../fixtures/platform/test-platform.ts";
import { until } from "../../helpers/eventually.ts";
import { type Mosquitto, skipWithoutMosquitto, startMosquitto } from "../../helpers/mosquitto.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { spawnStewardIn, startStewardIn } from "../../helpers/started-steward.ts";
import {
  freeTaskEventPorts,
  type TaskEventPorts,
  writeTaskEventsConfig,
} from "../../helpers/task-events-steward.ts";

const skip = skipWithoutMosquitto();
const TOPIC = "qliksense/butler/task_failure_server";
let platform: TestPlatform;
let broker: Mosquitto;

beforeAll(async () => {
  if (skip) return;
  [platform, broker] = await Promise.all([startTestPlatform(), startMosquitto()]);
});
afterAll(async () => {
  await Promise.all([platform?.stop(), broker?.stop()]);
});

/** "topic payload" of each message published under `filter`, from now until the test finishes. */
async function subscribe(filter: string): Promise<string[]> {
  const subscriber = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`);
  onTestFinished(() => subscriber.endAsync());
  const received: string[] = [];
  subscriber.on("message", (topic, payload) => received.push(`${topic} ${payload.toString()}`));
  await subscriber.subscribeAsync(filter);
  return received;
}

/** A steward.yaml with task events and the broker on (`mqttConfig` merged in); what is published under qliksense/#. */
async function prepare(
  ports: TaskEventPorts,
  mqttConfig: Record<string, unknown> = {},
): Promise<{ dir: string; received: string[] }> {
  const dir = scratchDirectory("steward-task-server-status-");
  writeTaskEventsConfig(dir, {
    platform,
    ports,
    extra: { mqttConfig: { enable: true, brokerHost: "127.0.0.1", brokerPort: broker.port, ...mqttConfig } },
  });
  return { dir, received: await subscribe("qliksense/#") };
}

describe.skipIf(skip)("the task-event listener's status on the broker", () => {
  it("publishes start on Butler's topic once the listener listens", async () => {
    // Prepare
    const { dir, received } = await prepare(await freeTaskEventPorts());

    // Act
    await startStewardIn(dir);
    await until(async () => received.length > 0, 5000, 50);

    // Assess
    expect(received).toEqual([`${TOPIC} start`]);
  });

  it("publishes error when the listener's port cannot be bound, and the start still fails", async () => {
    // Prepare
    const taken = createSocket("udp4");
    await new Promise<void>((resolve) => taken.bind(0, "127.0.0.1", resolve));
    const ports = { ...(await freeTaskEventPorts()), udp: taken.address().port };
    const { dir, received } = await prepare(ports, { taskFailureServerStatusTopic: "site/task_server" });
    const ownReceived = await subscribe("site/#");

    // Act
    const proc = spawnStewardIn(dir);
    const { code } = await proc.exited();
    taken.close();
    await until(async () => ownReceived.length > 0, 2000, 50);

    // Assess
    expect(code).toBe(1);
    expect(ownReceived).toEqual(["site/task_server error"]);
    expect(received).toEqual([]);
  });

  it("publishes nothing when the topic is set empty", async () => {
    // Prepare
    const { dir, received } = await prepare(await freeTaskEventPorts(), { taskFailureServerStatusTopic: "" });

    // Act
    const steward = await startStewardIn(dir);
    await new Promise((resolve) => setTimeout(resolve, 1000));

    // Assess
    expect(received).toEqual([]);
    expect(steward.output()).not.toMatch(/task-event listener's status/);
  });
});
