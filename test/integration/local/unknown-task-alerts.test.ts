/**
 * Task events for tasks the repository does not know, through a real `steward start` with a
 * webhook destination and the simulated platform over mutual TLS: datagrams with fresh random
 * task ids (anyone who reaches the UDP port can send them) send no alert and are counted
 * `unknown_task`; a datagram for a task that exists still alerts; and with the repository down
 * (an outage, not an answer that the task does not exist) the alert still goes out, saying what
 * was not available.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SIM_TASKS, TASK_FINANCE } from "../../../local/simulated-platform/catalogue.ts";
import { recordedRun } from "../../../local/simulated-platform/task-event-sender.ts";
import { startTestPlatform, type TestPlatform } from "../../fixtures/platform/test-platform.ts";
import { type CaptureServer, startCaptureServer } from "../../helpers/capture-server.ts";
import { until } from "../../helpers/eventually.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { sendDatagrams } from "../../helpers/send-datagrams.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import {
  freeTaskEventPorts,
  lastTaskEvents,
  type TaskEventPorts,
  taskEventCount,
  writeTaskEventsConfig,
} from "../../helpers/task-events-steward.ts";

let platform: TestPlatform;
let capture: CaptureServer;

beforeAll(async () => {
  [platform, capture] = await Promise.all([startTestPlatform(), startCaptureServer()]);
});
afterAll(async () => {
  await Promise.all([platform?.stop(), capture?.stop()]);
});
beforeEach(() => {
  platform.reset();
  capture.requests.length = 0;
});

/** Steward calling one webhook for failed reloads, at most once per task per 300 s. */
async function startWebhookSteward(): Promise<TaskEventPorts> {
  const dir = scratchDirectory("steward-unknown-task-");
  const ports = await freeTaskEventPorts();
  writeTaskEventsConfig(dir, {
    platform,
    ports,
    extra: {
      webhookNotification: {
        enable: true,
        reloadTaskFailure: { rateLimit: 300, webhooks: [{ webhookURL: `${capture.url}/hook` }] },
      },
    },
  });
  await startStewardIn(dir);
  return ports;
}

/** A failed-reload datagram with new random task, app and execution ids and the sender's own text. */
function forgedDatagram(): string {
  return [
    "/scheduler-reload-failed/",
    "qs-node1",
    "Nightly finance reload — ACTION REQUIRED: re-enter your password at https://sso-reset.example.net/0",
    "Finance",
    "INTERNAL\\sa_scheduler",
    randomUUID(),
    randomUUID(),
    "20261205T101010.000+0100",
    "ERROR",
    randomUUID(),
    "Reload failed. Call the helpdesk on +1 555 0100",
  ].join(";");
}

const webhookBodies = () =>
  capture.requests.map((request) => JSON.parse(request.body) as Record<string, string>);

describe("task events for tasks the repository does not know, through `steward start`", () => {
  it("five datagrams with fresh task ids: no webhook call, five counted unknown_task on the scrape endpoint and /status", async () => {
    // Prepare
    const ports = await startWebhookSteward();

    // Act
    await sendDatagrams(ports.udp, Array.from({ length: 5 }, forgedDatagram));
    await until(
      async () => (await taskEventCount(ports.scrape, "failed", "unknown_task")) === 5,
      10_000,
      100,
    );

    // Assess
    expect(capture.requests).toEqual([]);
    expect(await taskEventCount(ports.scrape, "failed", "received")).toBe(5);
    expect(await taskEventCount(ports.scrape, "failed", "processed")).toBe(0);
    const status = (await (await fetch(`http://127.0.0.1:${ports.ui}/status`)).json()) as {
      taskEvents: { counts: Record<string, number> };
    };
    expect(status.taskEvents.counts).toMatchObject({ "failed.unknown_task": 5 });
    expect(await lastTaskEvents(ports.ui)).toEqual([]);
  });

  it("a datagram for a task that exists still calls the webhook, with the repository's names", async () => {
    // Prepare
    const ports = await startWebhookSteward();

    // Act
    await sendDatagrams(ports.udp, [forgedDatagram(), recordedRun(platform.repository.taskEvents, "failed")]);
    await until(() => capture.requests.length === 1, 10_000, 50);
    await until(async () => (await taskEventCount(ports.scrape, "failed", "unknown_task")) === 1, 5000, 50);

    // Assess
    expect(webhookBodies()).toEqual([
      expect.objectContaining({ taskName: "Reload Sales", appOwnerName: "Anna Berg" }),
    ]);
  });

  it("with the repository down (an outage), the alert still goes out, saying what was not available", async () => {
    // Prepare
    const ports = await startWebhookSteward();
    platform.repository.fault = "status500";

    // Act
    const task = SIM_TASKS.find((t) => t.id === TASK_FINANCE) as (typeof SIM_TASKS)[number];
    const datagram = recordedRun(platform.repository.taskEvents, "failed", { task });
    await sendDatagrams(ports.udp, [datagram]);
    await until(() => capture.requests.length === 1, 10_000, 50);

    // Assess
    expect(webhookBodies()).toEqual([
      expect.objectContaining({
        taskName: "Reload Finance",
        taskId: TASK_FINANCE,
        appOwnerName: "not available",
      }),
    ]);
    expect(await taskEventCount(ports.scrape, "failed", "unknown_task")).toBe(0);
    const [shown] = await lastTaskEvents(ports.ui);
    expect(shown?.unavailable.task).toContain("500");
  });
});
