/**
 * The BrokerClient contract: every adapter runs this one suite (see broker-client.test.ts).
 * What an adapter promises depends on its kind:
 * - "broker" (MQTT): a publish reaches a subscriber with its exact topic and payload; a topic that
 *   cannot be published to is refused with InvalidTopicError; a broker that is down, refuses the
 *   connection or never acknowledges gives UpstreamError (502) within the configured waits, never a
 *   hang; once the broker is back, publishing works again.
 * - "disabled" (`mqttConfig.enable: false`): every publish is refused at once with
 *   FeatureDisabledError (503), whatever the topic.
 * Both kinds: close() completes, also when no broker was ever reached, and may be called again.
 */
import mqtt from "mqtt";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { InvalidTopicError } from "../../core/messaging/errors.ts";
import type { BrokerClient } from "../../core/ports.ts";
import { FeatureDisabledError, UpstreamError } from "../../core/upstream-error.ts";
import { until } from "../helpers/eventually.ts";
import { freePort } from "../helpers/free-port.ts";
import { type StallingBehaviour, startStallingBroker } from "../helpers/stalling-mqtt-broker.ts";
import { timed } from "../helpers/timed.ts";

/** Where a broker client under test connects and how long it may wait; "disabled" adapters ignore it. */
export interface BrokerClientTarget {
  brokerHost: string;
  brokerPort: number;
  /** How long a publish may wait for a connection still being made; 0 fails at once. */
  connectWaitMs: number;
  /** Longest wait for the broker's acknowledgement of one publish. */
  publishTimeoutMs: number;
  /** Delay between reconnection attempts. */
  reconnectPeriodMs: number;
}

/** A broker on loopback that the suite can stop. */
export interface RunningBroker {
  port: number;
  stop(): Promise<void>;
}

export type BrokerClientFactory =
  | {
      kind: "broker";
      create(target: BrokerClientTarget): BrokerClient;
      /** Starts a real broker on loopback, on `port` when given (to restart a stopped one). */
      startBroker(port?: number): Promise<RunningBroker>;
    }
  | { kind: "disabled"; create(target: BrokerClientTarget): BrokerClient };

/** Short waits keep the failure tests quick; the bounds below leave room for a busy machine. */
const SHORT_WAIT_MS = 300;
const AT_ONCE_MS = 500;
const SLACK_MS = 1500;

interface Delivery {
  topic: string;
  message: string;
}

interface Subscriber {
  received: Delivery[];
  /** Resolves once at least `count` messages arrived (fails after 5 s). */
  waitFor(count: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

async function subscribeToEverything(port: number): Promise<Subscriber> {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
    protocolVersion: 4,
    reconnectPeriod: 0,
  });
  const received: Delivery[] = [];
  client.on("message", (topic, payload) => received.push({ topic, message: payload.toString("utf8") }));
  await client.subscribeAsync("#", { qos: 1 });
  return {
    received,
    async waitFor(count) {
      await until(() => received.length >= count);
      return received;
    },
    async close() {
      await client.endAsync(true);
    },
  };
}

/** What every test of a suite uses: its clients, closed (with whatever else it started) after it. */
interface SuiteTools {
  /** Runs `cleanup` after the running test, in reverse order of registration. */
  closeAfter(cleanup: () => Promise<void>): void;
  brokerClientAt(port: number, overrides?: Partial<BrokerClientTarget>): BrokerClient;
  unreachableBrokerClient(): Promise<BrokerClient>;
}

function suiteTools(factory: BrokerClientFactory): SuiteTools {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const closeAfter = (cleanup: () => Promise<void>) => {
    cleanups.push(cleanup);
  };
  function brokerClientAt(port: number, overrides: Partial<BrokerClientTarget> = {}): BrokerClient {
    const brokerClient = factory.create({
      brokerHost: "127.0.0.1",
      brokerPort: port,
      connectWaitMs: 5000,
      publishTimeoutMs: 5000,
      reconnectPeriodMs: 50,
      ...overrides,
    });
    closeAfter(() => brokerClient.close());
    return brokerClient;
  }
  return {
    closeAfter,
    brokerClientAt,
    unreachableBrokerClient: async () => brokerClientAt(await freePort(), { connectWaitMs: 0 }),
  };
}

export function describeBrokerClientContract(name: string, factory: BrokerClientFactory): void {
  describe(`BrokerClient contract: ${name}`, () => {
    const tools = suiteTools(factory);

    it("completes close, and completes it again when called twice", async () => {
      const brokerClient = await tools.unreachableBrokerClient();

      const first = await timed(brokerClient.close());
      const second = await timed(brokerClient.close());

      expect(first.error).toBeUndefined();
      expect(second.error).toBeUndefined();
      expect(first.elapsedMs + second.elapsedMs).toBeLessThan(AT_ONCE_MS);
    });

    if (factory.kind === "disabled") {
      itRefusesWhileDisabled(tools);
      return;
    }
    const broker = sharedBroker(factory.startBroker);
    itDelivers(tools, broker);
    itRefusesWhileTheBrokerFails(tools, broker, factory.startBroker);
  });
}

/** The "disabled" kind: every publish refused at once. */
function itRefusesWhileDisabled({ unreachableBrokerClient }: SuiteTools): void {
  it("refuses every publish at once with FeatureDisabledError, whatever the topic", async () => {
    const brokerClient = await unreachableBrokerClient();

    const outcomes = [];
    for (const topic of ["steward/test", "a/#", ""])
      outcomes.push(await timed(brokerClient.publish(topic, "m")));

    for (const { error, elapsedMs } of outcomes) {
      expect(error).toBeInstanceOf(FeatureDisabledError);
      expect(elapsedMs).toBeLessThan(AT_ONCE_MS);
    }
  });

  it("still refuses with FeatureDisabledError after close", async () => {
    const brokerClient = await unreachableBrokerClient();
    await brokerClient.close();

    await expect(brokerClient.publish("steward/test", "m")).rejects.toBeInstanceOf(FeatureDisabledError);
  });
}

/** A broker started once for the suite's tests; its port is known once they run. */
function sharedBroker(startBroker: (port?: number) => Promise<RunningBroker>): { readonly port: number } {
  let broker: RunningBroker;
  beforeAll(async () => {
    broker = await startBroker();
  });
  afterAll(async () => {
    await broker.stop();
  });
  return {
    get port() {
      return broker.port;
    },
  };
}

/** The "broker" kind on a working broker: what is published arrives; invalid topics are refused. */
function itDelivers({ closeAfter, brokerClientAt }: SuiteTools, broker: { readonly port: number }): void {
  async function subscribed(): Promise<Subscriber> {
    const subscriber = await subscribeToEverything(broker.port);
    closeAfter(() => subscriber.close());
    return subscriber;
  }

  it("delivers each message to a subscriber with its exact topic and payload, in order", async () => {
    const { waitFor } = await subscribed();
    const brokerClient = brokerClientAt(broker.port);
    const messages: Delivery[] = [
      { topic: "steward/test", message: "hello ✓" },
      { topic: "/leading/slash", message: '{\n  "json": ["ä", 1]\n}' },
      { topic: "empty//level/", message: "" },
      { topic: " spaced ", message: "  padded\r\n" },
      { topic: "späces and ünicode ✓", message: "x".repeat(64 * 1024) },
    ];

    for (const { topic, message } of messages) await brokerClient.publish(topic, message);

    expect(await waitFor(messages.length)).toEqual(messages);
  });

  it("delivers every one of many concurrent publishes", async () => {
    const { waitFor } = await subscribed();
    const brokerClient = brokerClientAt(broker.port);
    const expected = Array.from({ length: 20 }, (_, i) => ({ topic: `steward/n/${i}`, message: `m${i}` }));

    await Promise.all(expected.map(({ topic, message }) => brokerClient.publish(topic, message)));

    const received = await waitFor(expected.length);
    const byTopic = (a: Delivery, b: Delivery) => a.topic.localeCompare(b.topic);
    expect([...received].sort(byTopic)).toEqual([...expected].sort(byTopic));
  });

  it("refuses topics with wildcards, NUL, nothing or over 65535 UTF-8 bytes with InvalidTopicError", async () => {
    const brokerClient = brokerClientAt(broker.port);
    const invalid = ["#", "a/#", "+", "a/+/b", "a+b", "", "a\0b", "ä".repeat(32_768)];

    const errors = [];
    for (const topic of invalid) errors.push((await timed(brokerClient.publish(topic, "m"))).error);

    for (const error of errors) expect(error).toBeInstanceOf(InvalidTopicError);
  });

  it("accepts a topic of exactly 65535 bytes", async () => {
    const brokerClient = brokerClientAt(broker.port);

    await expect(brokerClient.publish("t".repeat(65_535), "m")).resolves.toBeUndefined();
  });
}

/** The "broker" kind while the broker is away, silent, refusing or stalling: never a hang. */
function itRefusesWhileTheBrokerFails(
  { closeAfter, brokerClientAt, unreachableBrokerClient }: SuiteTools,
  broker: { readonly port: number },
  startBroker: (port?: number) => Promise<RunningBroker>,
): void {
  async function stallingBroker(behaviour: StallingBehaviour): Promise<RunningBroker> {
    const stalling = await startStallingBroker(behaviour);
    closeAfter(() => stalling.stop());
    return stalling;
  }

  it("refuses with UpstreamError at once when no broker listens", async () => {
    const brokerClient = await unreachableBrokerClient();

    const { error, elapsedMs } = await timed(brokerClient.publish("steward/test", "m"));

    expect(error).toBeInstanceOf(UpstreamError);
    expect(elapsedMs).toBeLessThan(AT_ONCE_MS);
  });

  it("waits up to connectWaitMs for a broker that is coming up, then publishes", async () => {
    const port = await freePort();
    const brokerClient = brokerClientAt(port, { connectWaitMs: 5000 });

    const publishing = brokerClient.publish("steward/test", "m");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const late = await startBroker(port);
    closeAfter(() => late.stop());

    await expect(publishing).resolves.toBeUndefined();
  });

  it("gives up with UpstreamError after connectWaitMs when the broker never answers the connection", async () => {
    const silent = await stallingBroker("silent");
    const brokerClient = brokerClientAt(silent.port, { connectWaitMs: SHORT_WAIT_MS });

    const { error, elapsedMs } = await timed(brokerClient.publish("steward/test", "m"));

    expect(error).toBeInstanceOf(UpstreamError);
    expect(elapsedMs).toBeLessThan(SHORT_WAIT_MS + SLACK_MS);
  });

  it("refuses with UpstreamError when the broker refuses the connection", async () => {
    const refusing = await stallingBroker("refuse");
    const brokerClient = brokerClientAt(refusing.port, { connectWaitMs: SHORT_WAIT_MS });

    const { error, elapsedMs } = await timed(brokerClient.publish("steward/test", "m"));

    expect(error).toBeInstanceOf(UpstreamError);
    expect(elapsedMs).toBeLessThan(SHORT_WAIT_MS + SLACK_MS);
  });

  it("answers UpstreamError after publishTimeoutMs when the broker does not acknowledge", async () => {
    const mute = await stallingBroker("no-puback");
    const brokerClient = brokerClientAt(mute.port, { publishTimeoutMs: SHORT_WAIT_MS });

    const { error, elapsedMs } = await timed(brokerClient.publish("steward/test", "m"));

    expect(error).toBeInstanceOf(UpstreamError);
    expect(elapsedMs).toBeGreaterThanOrEqual(SHORT_WAIT_MS - 10);
    expect(elapsedMs).toBeLessThan(SHORT_WAIT_MS + SLACK_MS);
  });

  it("answers UpstreamError while the broker is down and publishes again once it is back", async () => {
    const own = await startBroker();
    let running: RunningBroker = own;
    closeAfter(() => running.stop());
    const brokerClient = brokerClientAt(own.port, { connectWaitMs: 0, publishTimeoutMs: SHORT_WAIT_MS });
    await until(() => timed(brokerClient.publish("steward/test", "up")).then(({ error }) => !error));

    await own.stop();
    const down = await timed(brokerClient.publish("steward/test", "down"));
    running = await startBroker(own.port);
    const back = await subscribeToEverything(running.port);
    closeAfter(() => back.close());
    await until(() => timed(brokerClient.publish("steward/test", "back")).then(({ error }) => !error));

    expect(down.error).toBeInstanceOf(UpstreamError);
    expect(down.elapsedMs).toBeLessThan(SHORT_WAIT_MS + SLACK_MS);
    await until(() => back.received.some(({ message }) => message === "back"));
  });

  it("refuses a publish after close with UpstreamError, at once", async () => {
    const brokerClient = brokerClientAt(broker.port);
    await brokerClient.publish("steward/test", "m");
    await brokerClient.close();

    const { error, elapsedMs } = await timed(brokerClient.publish("steward/test", "m"));

    expect(error).toBeInstanceOf(UpstreamError);
    expect(elapsedMs).toBeLessThan(AT_ONCE_MS);
  });

  it("completes close while a broker keeps the connection waiting", async () => {
    const silent = await stallingBroker("silent");
    const brokerClient = brokerClientAt(silent.port);

    const { error, elapsedMs } = await timed(brokerClient.close());

    expect(error).toBeUndefined();
    expect(elapsedMs).toBeLessThan(AT_ONCE_MS);
  });
}
