/**
 * Reload-task events through a real `steward start` with task events on and the simulated
 * platform over mutual TLS: a datagram is counted and shown among the last events with what the
 * repository said about it; the same datagram again is a duplicate; a port that cannot be bound
 * stops the start with exit 1.
 */
import { randomUUID } from "node:crypto";
import { createSocket } from "node:dgram";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TASK_SALES } from "../../../local/simulated-platform/catalogue.ts";
import { taskDatagram } from "../../../local/simulated-platform/task-event-sender.ts";
import { recordExecution } from "../../../local/simulated-platform/task-routes.ts";
import { startTestPlatform, type TestPlatform } from "../../fixtures/platform/test-platform.ts";
import { until } from "../../helpers/eventually.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { sendDatagrams } from "../../helpers/send-datagrams.ts";
import { spawnStewardIn, startStewardIn } from "../../helpers/started-steward.ts";
import {
  freeTaskEventPorts,
  lastTaskEvents,
  taskEventCount,
  writeTaskEventsConfig,
} from "../../helpers/task-events-steward.ts";

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform?.stop();
});
beforeEach(() => platform.reset());

describe("reload-task events through `steward start`", () => {
  it("counts a failed-reload datagram, shows it with what the repository said, and calls the same datagram again a duplicate", async () => {
    // Prepare
    const dir = scratchDirectory("steward-task-events-");
    const ports = await freeTaskEventPorts();
    writeTaskEventsConfig(dir, { platform, ports });
    const executionId = randomUUID();
    recordExecution(platform.repository.taskEvents, {
      executionId,
      taskId: TASK_SALES,
      outcome: "failed",
      stoppedAtMs: Date.now(),
    });
    const datagram = taskDatagram("failed", executionId, Date.now());
    await startStewardIn(dir);

    // Act
    await sendDatagrams(ports.udp, [datagram]);
    await until(async () => (await taskEventCount(ports.scrape, "failed", "processed")) === 1, 10_000, 100);
    await sendDatagrams(ports.udp, [datagram]);
    await until(async () => (await taskEventCount(ports.scrape, "failed", "duplicate")) === 1, 5000, 100);

    // Assess
    expect(await taskEventCount(ports.scrape, "failed", "received")).toBe(2);
    expect(await taskEventCount(ports.scrape, "failed", "processed")).toBe(1);
    const last = await lastTaskEvents(ports.ui);
    expect(last).toHaveLength(1);
    expect(last[0]).toMatchObject({
      kind: "reloadTaskFailure",
      taskName: "Reload Sales",
      appName: "Sales dashboard",
      node: "qs-node1",
      executionId,
      unavailable: {},
    });
    expect(platform.repository.calls.some((call) => call.path === "/qrs/executionresult/full")).toBe(true);
  });

  it("still processes the event when the script log cannot be downloaded, saying what is missing", async () => {
    // Prepare
    const dir = scratchDirectory("steward-task-events-");
    const ports = await freeTaskEventPorts();
    writeTaskEventsConfig(dir, { platform, ports });
    platform.repository.taskEvents.scriptLogFault = true;
    const executionId = randomUUID();
    recordExecution(platform.repository.taskEvents, {
      executionId,
      taskId: TASK_SALES,
      outcome: "failed",
      stoppedAtMs: Date.now(),
    });
    await startStewardIn(dir);

    // Act
    await sendDatagrams(ports.udp, [taskDatagram("failed", executionId, Date.now())]);
    await until(async () => (await taskEventCount(ports.scrape, "failed", "processed")) === 1, 20_000, 100);

    // Assess
    expect(await taskEventCount(ports.scrape, "failed", "enrichment_failed")).toBe(1);
    const [shown] = await lastTaskEvents(ports.ui);
    expect(shown?.unavailable).toEqual({ scriptLog: expect.stringContaining("404") });
  });

  it("exits 1 with the reason when the task-event port cannot be bound", async () => {
    // Prepare
    const dir = scratchDirectory("steward-task-events-");
    const taken = createSocket("udp4");
    await new Promise<void>((resolve) => taken.bind(0, "127.0.0.1", resolve));
    const ports = { ...(await freeTaskEventPorts()), udp: taken.address().port };
    writeTaskEventsConfig(dir, { platform, ports });

    // Act
    const proc = spawnStewardIn(dir);
    const { code } = await proc.exited();
    taken.close();

    // Assess
    expect(code).toBe(1);
    expect(proc.output()).toMatch(new RegExp(`${ports.udp}.*EADDRINUSE|EADDRINUSE.*${ports.udp}`));
  });
});
