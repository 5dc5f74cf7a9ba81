/**
 * Task starts from broker messages (core/platform/broker-task-starts.ts) against the simulated
 * platform's repository: what is started, refused, counted and logged, how a platform outage is
 * reported (once a minute, no retry), and how the queue of waiting starts stays bounded.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type ClosablePlatformClient,
  createQlikPlatformClient,
} from "../../../../core/adapters/platform/platform-client.ts";
import { loadPlatformTlsMaterial } from "../../../../core/adapters/platform/tls-material.ts";
import { createBrokerTaskStarts } from "../../../../core/platform/broker-task-starts.ts";
import { createStartTaskFilter } from "../../../../core/platform/start-task-filter.ts";
import { createTaskStartCounts, type TaskStartCounts } from "../../../../core/platform/task-start-counts.ts";
import type { Clock } from "../../../../core/ports.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import {
  TASK_FINANCE,
  TASK_HR,
  TASK_SALES,
  TASK_UNKNOWN,
} from "../../../../local/simulated-platform/catalogue.ts";
import { startTestPlatform, type TestPlatform } from "../../../fixtures/platform/test-platform.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { type RecordingLogger, recordingLogger } from "../../../helpers/recording-logger.ts";

let sim: TestPlatform;
let client: ClosablePlatformClient;
let counts: TaskStartCounts;
let logger: RecordingLogger;

const bytes = (text: string) => new TextEncoder().encode(text);
const warnings = (message: string) => logger.at("warn").filter((entry) => entry.message.includes(message));

function starts(options: { clock?: Clock; maxWaiting?: number; allow?: string[] } = {}) {
  return createBrokerTaskStarts({
    platform: client,
    filter: createStartTaskFilter({
      enable: options.allow !== undefined,
      allowTask: { taskId: options.allow ?? [], tag: [], customProperty: [] },
    }),
    counts,
    logger,
    clock: options.clock ?? systemClock,
    topic: "qliksense/start_task",
    ...(options.maxWaiting === undefined ? {} : { maxWaiting: options.maxWaiting }),
  });
}

beforeAll(async () => {
  sim = await startTestPlatform();
  client = createQlikPlatformClient({
    connection: sim.connection({ timeoutMs: 400 }),
    tls: await loadPlatformTlsMaterial(sim.certificates),
    clock: systemClock,
    logger: recordingLogger(),
  });
});

afterAll(async () => {
  client?.close();
  await sim?.stop();
});

beforeEach(() => {
  sim.reset();
  counts = createTaskStartCounts();
  logger = recordingLogger();
});

describe("task starts from broker messages", () => {
  it("starts the task a message names, one message after the other, in order", async () => {
    const broker = starts();
    broker.receive(bytes(TASK_HR));
    broker.receive(bytes(`${TASK_FINANCE}\n`));
    await broker.idle();
    expect(sim.repository.startedTaskIds).toEqual([TASK_HR, TASK_FINANCE]);
    expect(counts.totals()).toEqual({ "broker.started": 2 });
    expect(logger.at("info").map((entry) => entry.fields)).toContainEqual({
      source: "broker",
      count: 1,
      tasks: TASK_HR,
    });
  });

  it("counts a message that names no task and starts nothing for it", async () => {
    const broker = starts();
    broker.receive(bytes("start everything"));
    broker.receive(new Uint8Array([0xc3, 0x28]));
    broker.receive(bytes(TASK_UNKNOWN));
    await broker.idle();
    expect(sim.repository.startedTaskIds).toEqual([]);
    expect(counts.totals()).toEqual({ "broker.malformed": 2, "broker.unknown": 1 });
    expect(warnings("ignored: the message is not a task id")[0]?.fields).toMatchObject({
      message: "start everything",
      bytes: 16,
    });
    expect(warnings("ignored: the message is not UTF-8 text")).toHaveLength(1);
    expect(warnings("the platform knows no task with this id")[0]?.fields).toMatchObject({
      taskId: TASK_UNKNOWN,
    });
  });

  it("refuses a task the start filter does not allow: nothing started, counted, one WARN a minute per task", async () => {
    const clock = createManualClock();
    const broker = starts({ clock, allow: [TASK_FINANCE] });
    for (let i = 0; i < 3; i++) broker.receive(bytes(TASK_SALES));
    broker.receive(bytes(TASK_FINANCE));
    await broker.idle();
    clock.advance(60_000);
    broker.receive(bytes(TASK_SALES));
    await broker.idle();
    expect(sim.repository.startedTaskIds).toEqual([TASK_FINANCE]);
    expect(counts.totals()).toEqual({ "broker.refused": 4, "broker.started": 1 });
    expect(warnings("task start from the broker refused").map((entry) => entry.fields)).toEqual([
      expect.objectContaining({ taskId: TASK_SALES, task: "Reload Sales", messagesSinceLastLine: 1 }),
      expect.objectContaining({ taskId: TASK_SALES, messagesSinceLastLine: 3 }),
    ]);
  });

  it("reports a platform outage once a minute with the count, and asks the platform once per message (no retry)", async () => {
    sim.repository.fault = "status500";
    const broker = starts({ clock: createManualClock() });
    for (let i = 0; i < 3; i++) broker.receive(bytes(TASK_HR));
    await broker.idle();
    expect(counts.totals()).toEqual({ "broker.failed": 3 });
    expect(warnings("the platform did not start it")).toHaveLength(1);
    expect(warnings("the platform did not start it")[0]?.fields).toMatchObject({
      reason: expect.stringContaining("HTTP 500"),
    });
    expect(sim.repository.calls).toHaveLength(3);
  });

  it("keeps at most maxWaiting starts waiting, drops the others and those still waiting at stop, counted", async () => {
    sim.repository.fault = "hang";
    const broker = starts({ maxWaiting: 2 });
    for (let i = 0; i < 5; i++) broker.receive(bytes(TASK_HR));
    expect(counts.totals()).toEqual({ "broker.dropped": 2 });
    const stopping = Date.now();
    await broker.stop(100);
    expect(Date.now() - stopping).toBeLessThan(1000);
    expect(counts.totals()).toEqual({ "broker.dropped": 4 });
    expect(logger.at("warn").map((entry) => entry.message)).toContain(
      "task starts from the broker dropped at shutdown",
    );
    broker.receive(bytes(TASK_HR));
    await broker.idle();
    expect(sim.repository.startedTaskIds).toEqual([]);
  });
});
