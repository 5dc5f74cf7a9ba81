import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChatClient } from "../../../../core/adapters/http-clients/chat-client.ts";
import { createObservabilityClient } from "../../../../core/adapters/http-clients/observability-client.ts";
import { createMqttBrokerClient } from "../../../../core/adapters/mqtt.ts";
import { createDisabledBrokerClient } from "../../../../core/messaging/disabled-broker-client.ts";
import type { BrokerClient } from "../../../../core/ports.ts";
import { type AedesBroker, startAedes } from "../../../helpers/aedes-broker.ts";
import { type CaptureServer, startCaptureServer } from "../../../helpers/capture-server.ts";
import { until } from "../../../helpers/eventually.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { createRestTestApp, json, type RestTestApp, removeDir } from "../../../helpers/rest-app.ts";

let broker: AedesBroker;
let upstream: CaptureServer;
let brokerClient: BrokerClient;
let t: RestTestApp;

beforeAll(async () => {
  broker = await startAedes();
  upstream = await startCaptureServer();
  const logger = recordingLogger();
  brokerClient = createMqttBrokerClient({ brokerHost: "127.0.0.1", brokerPort: broker.port, logger });
  await until(() => logger.entries.some((entry) => entry.message === "Connected to MQTT broker"));
  const destination = {
    headers: [],
    staticAttributes: [{ name: "env", value: "test" }],
    accounts: [{ accountName: "prod", insertApiKey: "k1", accountId: "42" }],
  };
  t = await createRestTestApp({
    services: {
      broker: brokerClient,
      observability: createObservabilityClient({
        event: { ...destination, url: upstream.url },
        metric: { ...destination, url: `${upstream.url}/metric/v1` },
        clock: { now: () => 1_700_000_000_000, setTimeout, clearTimeout },
      }),
      chat: createChatClient({ webhookURL: `${upstream.url}/hook` }),
    },
  });
});
afterAll(async () => {
  await brokerClient.close();
  await broker.stop();
  await upstream.stop();
  await t.close();
  await removeDir(t.dir);
});

describe("PUT /v4/mqttpublishmessage", () => {
  it("publishes to the broker and answers 201 with topic and message", async () => {
    const subscriber = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { protocolVersion: 4 });
    const received: string[] = [];
    subscriber.on("message", (topic, payload) => received.push(`${topic} ${payload.toString()}`));
    await subscriber.subscribeAsync("steward/#", { qos: 1 });
    const response = await t.app.request(
      "/v4/mqttpublishmessage",
      json("PUT", { topic: "steward/x", message: "hi" }),
    );
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ topic: "steward/x", message: "hi" });
    await until(() => received.length === 1);
    expect(received).toEqual(["steward/x hi"]);
    await subscriber.endAsync();
  });

  it("answers 400 for a wildcard topic or a missing message", async () => {
    expect(
      (await t.app.request("/v4/mqttpublishmessage", json("PUT", { topic: "a/#", message: "m" }))).status,
    ).toBe(400);
    expect((await t.app.request("/v4/mqttpublishmessage", json("PUT", { topic: "a" }))).status).toBe(400);
  });

  it("answers 503 at once when the broker is disabled, and 502 when it is unreachable", async () => {
    const disabled = await createRestTestApp({ services: { broker: createDisabledBrokerClient() } });
    const off = await disabled.app.request(
      "/v4/mqttpublishmessage",
      json("PUT", { topic: "t", message: "m" }),
    );
    expect(off.status).toBe(503);
    expect(await off.json()).toEqual({
      statusCode: 503,
      error: "Service Unavailable",
      message: "The message broker is disabled (mqttConfig.enable is false)",
    });
    await disabled.close();
    await removeDir(disabled.dir);

    const unreachable = createMqttBrokerClient({
      brokerHost: "127.0.0.1",
      brokerPort: 1,
      logger: recordingLogger(),
    });
    const down = await createRestTestApp({ services: { broker: unreachable } });
    const response = await down.app.request(
      "/v4/mqttpublishmessage",
      json("PUT", { topic: "t", message: "m" }),
    );
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: string }).error).toBe("Bad Gateway");
    await unreachable.close();
    await down.close();
    await removeDir(down.dir);
  });
});

describe("observability and chat", () => {
  it("POST /v4/observability/event answers 202 with the result code and text", async () => {
    upstream.requests.length = 0;
    upstream.respondWith(202);
    const response = await t.app.request(
      "/v4/observability/event",
      json("POST", { eventType: "reload_failed", attributes: [{ name: "app", value: "Sales" }] }),
    );
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({
      observabilityResultCode: "202",
      observabilityResultText: "Accepted",
    });
    expect(upstream.requests[0]?.path).toBe("/v1/accounts/42/events");
    expect(JSON.parse(upstream.requests[0]?.body ?? "")).toEqual({
      env: "test",
      app: "Sales",
      eventType: "reload_failed",
      timestamp: 1_700_000_000_000,
    });
  });

  it("POST /v4/observability/metric answers 202, 400 for a non-gauge type, 502 when upstream refuses", async () => {
    upstream.respondWith(202);
    const ok = await t.app.request(
      "/v4/observability/metric",
      json("POST", { name: "m", type: "gauge", value: 1.5 }),
    );
    expect(ok.status).toBe(202);
    const count = await t.app.request(
      "/v4/observability/metric",
      json("POST", { name: "m", type: "count", value: 1 }),
    );
    expect(count.status).toBe(400);
    upstream.respondWith(500);
    const refused = await t.app.request(
      "/v4/observability/metric",
      json("POST", { name: "m", type: "gauge", value: 1 }),
    );
    expect(refused.status).toBe(502);
    expect(await refused.json()).toEqual({
      statusCode: 502,
      error: "Bad Gateway",
      message: "Posting the metric failed for prod: HTTP 500",
    });
  });

  it("PUT /v4/chatpostmessage answers 201 with the message echoed, 502 when the webhook refuses", async () => {
    upstream.requests.length = 0;
    upstream.respondWith(200);
    const message = { channel: "#ops", from_user: "Steward", msg: "Reload done", emoji: ":tada:" };
    const response = await t.app.request("/v4/chatpostmessage", json("PUT", message));
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual(message);
    expect(JSON.parse(upstream.requests[0]?.body ?? "")).toEqual({
      channel: "#ops",
      username: "Steward",
      text: "Reload done",
      icon_emoji: ":tada:",
    });
    upstream.respondWith(403);
    expect((await t.app.request("/v4/chatpostmessage", json("PUT", message))).status).toBe(502);
  });
});
