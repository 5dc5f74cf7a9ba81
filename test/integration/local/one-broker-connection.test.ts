/**
 * One broker connection for the whole process, as an operator runs it: `steward start` with the
 * REST API's broker endpoint and UDP user events sent to the broker, both on Debian's mosquitto
 * with a fixed `mqttConfig.clientId`. The broker must see that client connect once (two
 * connections with one client id push each other off: the broker closes the older one each time
 * the other connects), the REST publish must answer 201 and arrive, and the agent's messages too.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { type Mosquitto, skipWithoutMosquitto, startMosquitto } from "../../helpers/mosquitto.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { sendDatagrams } from "../../helpers/send-datagrams.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";

const skip = skipWithoutMosquitto();

const CLIENT_ID = "steward-one-connection";
const USER_EVENT =
  "/qseow-proxy-connection/;pro2-win1;Open connection;userdir;user3;AppAccess;/app/a421f4a2-c311-4ef4-ba41-fe2e6a2b0d69;Some text";

let broker: Mosquitto;

beforeAll(async () => {
  if (skip) return;
  broker = await startMosquitto();
});
afterAll(async () => {
  await broker?.stop();
});

/** Lines of mosquitto's log about `clientId`: its connects, and old connections it closed for a new one. */
async function brokerLines(clientId: string): Promise<{ connects: number; takenOver: number }> {
  const lines = (await broker.log()).split("\n").filter((line) => line.includes(clientId));
  return {
    connects: lines.filter((line) => line.includes("New client connected")).length,
    takenOver: lines.filter((line) => line.includes("already connected")).length,
  };
}

describe.skipIf(skip)("one broker connection for the REST API and the agent", () => {
  it("connects once with a fixed client id; REST publishes and agent messages both arrive", async () => {
    // Prepare
    const dir = scratchDirectory("steward-broker-");
    const ports = { rest: await freePort(), user: await freePort() };
    writeFileSync(
      join(dir, "steward.yaml"),
      `Service:
  auditEvents:
    enable: false
  restServer:
    enable: true
    host: 127.0.0.1
    port: ${ports.rest}
    endpointsEnable:
      mqttPublishMessage: true
  mqttConfig:
    enable: true
    brokerHost: 127.0.0.1
    brokerPort: ${broker.port}
    clientId: ${CLIENT_ID}
  userEvents:
    enable: true
    udpServerConfig:
      serverHost: 127.0.0.1
      portUserActivityEvents: ${ports.user}
    sendToMQTT:
      enable: true
`,
    );
    const subscriber = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`);
    const topics: string[] = [];
    subscriber.on("message", (topic) => topics.push(topic));
    await subscriber.subscribeAsync(["qliksense/#", "ops/#"]);
    try {
      await startStewardIn(dir);

      // Act
      const published = await fetch(`http://127.0.0.1:${ports.rest}/v4/mqttpublishmessage`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ topic: "ops/restart", message: "from REST" }),
      });
      await sendDatagrams(ports.user, [USER_EVENT]);
      await until(() => topics.includes("ops/restart") && topics.includes("qliksense/userevent"), 10_000);
      // Long enough for a second connection with the same client id to show in the broker's log.
      await new Promise((resolve) => setTimeout(resolve, 1000));

      // Assess
      expect(published.status).toBe(201);
      expect(await brokerLines(CLIENT_ID)).toEqual({ connects: 1, takenOver: 0 });
    } finally {
      await subscriber.endAsync();
    }
  }, 30_000);
});
