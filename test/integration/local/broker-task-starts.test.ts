/**
 * Task starts from the broker and the start filter, as an operator runs them: `steward start`
 * on Debian's mosquitto and the simulated platform, with Butler's topics (`qliksense/#`,
 * `qliksense/start_task`), a start filter, the REST task start and the broker publish endpoint on
 * one broker connection. A published task id is started in the platform's repository; a task the
 * filter refuses is not (counted, logged), nor is a malformed message (counted, Steward serving
 * on); the REST start answers 403 for a refused task and 200 for an allowed one; the broker sees
 * Steward's client id connect once; SIGTERM exits 0.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { TASK_FINANCE, TASK_HR, TASK_SALES } from "../../../local/simulated-platform/catalogue.ts";
import { startTestPlatform, type TestPlatform } from "../../fixtures/platform/test-platform.ts";
import { until } from "../../helpers/eventually.ts";
import { freePort } from "../../helpers/free-port.ts";
import { type Mosquitto, skipWithoutMosquitto, startMosquitto } from "../../helpers/mosquitto.ts";
import { parsePrometheusText, sampleValue } from "../../helpers/prometheus-text.ts";
import { type StewardProcess, spawnSteward } from "../../helpers/steward-process.ts";

const skip = skipWithoutMosquitto();

const START_TOPIC = "qliksense/start_task";
const CLIENT_ID = "steward-task-starts";

let sim: TestPlatform;
let broker: Mosquitto;
let publisher: mqtt.MqttClient;
let steward: StewardProcess;
let dir: string;
const ports = { rest: 0, scrape: 0 };

function writeConfig(): void {
  const config = {
    Service: {
      auditEvents: { enable: false },
      restServer: {
        enable: true,
        host: "127.0.0.1",
        port: ports.rest,
        endpointsEnable: { reloadTaskStart: true, mqttPublishMessage: true },
      },
      scrapeEndpoint: { enable: true, host: "127.0.0.1", port: ports.scrape },
      cert: {
        clientCert: sim.pki.clientCertPath,
        clientCertKey: sim.pki.clientKeyPath,
        clientCertCA: sim.pki.caPath,
      },
      platform: { host: "127.0.0.1", repositoryPort: sim.servers[0]?.port, timeoutMs: 2000 },
      mqttConfig: {
        enable: true,
        brokerHost: "127.0.0.1",
        brokerPort: broker.port,
        clientId: CLIENT_ID,
        subscriptionRootTopic: "qliksense/#",
        taskStartTopic: START_TOPIC,
      },
      // Reload Finance by id; Reload HR by its tag `hr`; Reload Sales not at all.
      startTaskFilter: { enable: true, allowTask: { taskId: [TASK_FINANCE], tag: ["hr"] } },
    },
  };
  writeFileSync(join(dir, "steward.yaml"), stringify(config));
}

async function starts(source: string, outcome: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${ports.scrape}/metrics`)).text();
  return sampleValue(parsePrometheusText(text), "steward_task_starts_total", { source, outcome }) ?? 0;
}

beforeAll(async () => {
  if (skip) return;
  sim = await startTestPlatform();
  broker = await startMosquitto();
  dir = mkdtempSync(join(tmpdir(), "steward-broker-starts-"));
  ports.rest = await freePort();
  ports.scrape = await freePort();
  writeConfig();
  steward = spawnSteward(["start", "--config", "steward.yaml"], { cwd: dir });
  await steward.waitFor(/steward ready/, 30_000);
  await steward.waitFor(/Subscribed to MQTT topic.*qliksense\/#/, 10_000);
  publisher = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`);
}, 60_000);

afterAll(async () => {
  await publisher?.endAsync();
  if (steward !== undefined && steward.child.exitCode === null) steward.child.kill("SIGKILL");
  await broker?.stop();
  await sim?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skip)("task starts from the broker, through steward start", () => {
  it("starts on the platform the task whose id is published to the start topic", async () => {
    await publisher.publishAsync(START_TOPIC, TASK_FINANCE, { qos: 1 });
    await until(() => sim.repository.startedTaskIds.includes(TASK_FINANCE), 10_000);
    await until(async () => (await starts("broker", "started")) === 1);
    expect(steward.output()).toMatch(
      new RegExp(`task start: tasks started source=broker count=1 tasks=${TASK_FINANCE}`),
    );
  });

  it("starts nothing for a task the filter refuses, and counts and logs it", async () => {
    await publisher.publishAsync(START_TOPIC, TASK_SALES, { qos: 1 });
    await until(async () => (await starts("broker", "refused")) === 1, 10_000);
    expect(sim.repository.startedTaskIds).not.toContain(TASK_SALES);
    expect(steward.output()).toMatch(
      /warn: \[broker-task-starts\] task start from the broker refused .*Reload Sales/,
    );
  });

  it("counts malformed messages, starts nothing for them and goes on serving", async () => {
    const before = sim.repository.startedTaskIds.length;
    await publisher.publishAsync(START_TOPIC, "start the sales reload", { qos: 1 });
    await publisher.publishAsync(START_TOPIC, Buffer.from([0xff, 0x00, 0xfe]), { qos: 1 });
    await publisher.publishAsync(START_TOPIC, "x".repeat(100_000), { qos: 1 });
    // Under the root but not the start topic: not for the task start, not counted.
    await publisher.publishAsync("qliksense/task_failure", TASK_HR, { qos: 1 });
    await until(async () => (await starts("broker", "malformed")) === 3, 10_000);
    expect(sim.repository.startedTaskIds).toHaveLength(before);
    expect(steward.output()).toMatch(/task start from the broker ignored: the message is not a task id/);

    // Still taking starts: Reload HR is allowed by its tag.
    await publisher.publishAsync(START_TOPIC, `${TASK_HR}\n`, { qos: 1 });
    await until(() => sim.repository.startedTaskIds.includes(TASK_HR), 10_000);
    expect(sim.repository.startedTaskIds.filter((id) => id === TASK_HR)).toHaveLength(1);
    expect(steward.child.exitCode).toBeNull();
  });

  it("answers the REST start with 403 for a refused task and 200 for an allowed one, counted apart", async () => {
    const url = (taskId: string) => `http://127.0.0.1:${ports.rest}/v4/reloadtask/${taskId}/start`;
    const refused = await fetch(url(TASK_SALES), { method: "PUT" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      statusCode: 403,
      error: "Forbidden",
      message: expect.stringContaining(`"Reload Sales" (${TASK_SALES}): not allowed by startTaskFilter`),
    });
    const allowed = await fetch(url(TASK_HR), { method: "PUT" });
    expect(allowed.status).toBe(200);
    expect(await starts("rest", "refused")).toBe(1);
    expect(await starts("rest", "started")).toBe(1);
    expect(sim.repository.startedTaskIds).not.toContain(TASK_SALES);
  });

  it("shares one broker connection with the REST publish, and exits 0 on SIGTERM", async () => {
    const published = await fetch(`http://127.0.0.1:${ports.rest}/v4/mqttpublishmessage`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ topic: "ops/hello", message: "from REST" }),
    });
    expect(published.status).toBe(201);
    const connects = (await broker.log())
      .split("\n")
      .filter((line) => line.includes("New client connected") && line.includes(CLIENT_ID));
    expect(connects).toHaveLength(1);
    steward.child.kill("SIGTERM");
    expect((await steward.exited(15_000)).code).toBe(0);
  });
});
