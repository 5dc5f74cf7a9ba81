import mqtt from "mqtt";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { recordedRun } from "../../../local/simulated-platform/task-event-sender.ts";
import { startTestPlatform, type TestPlatform } from "../../fixtures/platform/test-platform.ts";
import { until } from "../../helpers/eventually.ts";
import { type Influxd, skipWithoutInfluxd, startInfluxd } from "../../helpers/influxd.ts";
import { type Mosquitto, skipWithoutMosquitto, startMosquitto } from "../../helpers/mosquitto.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { sendDatagrams } from "../../helpers/send-datagrams.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import {
  freeTaskEventPorts,
  type TaskEventPorts,
  taskEventCount,
  writeTaskEventsConfig,
} from "../../helpers/task-events-steward.ts";

const skip = skipWithoutInfluxd() || skipWithoutMosquitto();

let platform: TestPlatform;
let influxd: Influxd;
let broker: Mosquitto;

beforeAll(async () => {
  if (skip) return;
  [platform, influxd, broker] = await Promise.all([startTestPlatform(), startInfluxd(), startMosquitto()]);
});
afterAll(async () => {
  await Promise.all([platform?.stop(), influxd?.close(), broker?.stop()]);
});
beforeEach(() => platform?.reset());

interface Received {
  topic: string;
  message: string;
}

/** Steward with task events written to `database` and published on the broker; a subscriber to qliksense/#. */
async function startAlertingSteward(
  database: string,
): Promise<{ ports: TaskEventPorts; received: Received[] }> {
  const dir = scratchDirectory("steward-task-alerts-");
  const ports = await freeTaskEventPorts();
  writeTaskEventsConfig(dir, {
    platform,
    ports,
    extra: {
      timeseriesdbConfig: {
        enable: true,
        version: 1,
        host: "127.0.0.1",
        port: influxd.port,
        v1Config: { dbName: database },
      },
      // The listener's status topic (under qliksense/ too) has a test of its own.
      mqttConfig: {
        enable: true,
        brokerHost: "127.0.0.1",
        brokerPort: broker.port,
        taskFailureServerStatusTopic: "",
      },
      taskEvents: {
        udpServerConfig: {
          serverHost: "127.0.0.1",
          portTaskEvents: ports.udp,
          queueMetrics: { timeseriesdb: { enable: true, writeFrequency: 500 } },
        },
        timeseriesdb: {
          tag: { static: [{ name: "qs_env", value: "lab" }] },
          reloadTaskFailure: { enable: true },
        },
        sendToMQTT: { enable: true },
      },
    },
  });
  const subscriber = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`);
  const received: Received[] = [];
  subscriber.on("message", (topic, payload) => received.push({ topic, message: payload.toString() }));
  await subscriber.subscribeAsync("qliksense/#");
  await startStewardIn(dir);
  return { ports, received };
}

function failedRun(): string {
  return recordedRun(platform.repository.taskEvents, "failed", { stoppedAtMs: Date.now() - 1000 });
}

async function points(database: string): Promise<Record<string, unknown>[]> {
  const answer = await influxd.query(`SELECT * FROM "reload_task_failed"`, database);
  const series = answer.results[0]?.series?.[0];
  return (series?.values ?? []).map((row) =>
    Object.fromEntries(series?.columns.map((c, i) => [c, row[i]]) ?? []),
  );
}

describe.skipIf(skip)("reload-task alerts through `steward start`", () => {
  it("a failed reload: one point and the broker messages within 5 s; the same datagram again adds nothing; the queue is measured in task_events_queue", async () => {
    // Prepare
    const { ports, received } = await startAlertingSteward("alerts_once");
    const datagram = failedRun();

    // Act
    const sentAt = Date.now();
    await sendDatagrams(ports.udp, [datagram]);
    await until(async () => (await points("alerts_once")).length === 1 && received.length === 2, 5000, 50);
    const within = Date.now() - sentAt;
    await sendDatagrams(ports.udp, [datagram]);
    await until(async () => (await taskEventCount(ports.scrape, "failed", "duplicate")) === 1, 5000, 50);
    await new Promise((resolve) => setTimeout(resolve, 1000));

    // Assess
    expect(within).toBeLessThan(5000);
    const stored = await points("alerts_once");
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      qs_env: "lab",
      task_name: "Reload Sales",
      task_exeuctionStatusText: "FinishedFail",
      task_executingNodeName: "qs-node1",
    });
    expect(String(stored[0]?.reload_log)).toContain("Error: Cannot open file");
    expect(received.map((r) => r.topic)).toEqual(["qliksense/task_failure", "qliksense/task_failure_full"]);
    expect(received[0]?.message).toBe("Reload Sales");
    await until(
      async () => {
        const queue = await influxd.query(`SELECT count(*) FROM "task_events_queue"`, "alerts_once");
        return (queue.results[0]?.series?.length ?? 0) > 0;
      },
      5000,
      100,
    );
  });

  it("the script log unavailable: the alert still arrives, saying so", async () => {
    // Prepare
    const { ports, received } = await startAlertingSteward("alerts_no_log");
    platform.repository.taskEvents.scriptLogFault = true;

    // Act
    await sendDatagrams(ports.udp, [failedRun()]);
    await until(
      async () => (await points("alerts_no_log")).length === 1 && received.length === 2,
      15_000,
      100,
    );

    // Assess
    const [stored] = await points("alerts_no_log");
    expect(stored).toMatchObject({
      scriptLog: "Script log not available",
      task_exeuctionStatusText: "FinishedFail",
    });
    expect(received[0]).toEqual({ topic: "qliksense/task_failure", message: "Reload Sales" });
    expect(await taskEventCount(ports.scrape, "failed", "enrichment_failed")).toBe(1);
  });
});
