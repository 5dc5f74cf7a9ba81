/**
 * Enrichment of task events against the simulated platform over mutual TLS: each lookup finds
 * what the repository holds for THIS execution, and each lookup that fails leaves its part "not
 * available" with the reason while the alert is still made; a task the repository says does not
 * exist makes no alert.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createRepositoryClient,
  type RepositoryClient,
} from "../../../../core/adapters/platform/repository-client.ts";
import { createTaskRepository } from "../../../../core/adapters/platform/repository-task-events.ts";
import { loadPlatformTlsMaterial } from "../../../../core/adapters/platform/tls-material.ts";
import type { TaskAlert } from "../../../../core/alerts/task-alert.ts";
import type { TaskEvent, TaskEventKind } from "../../../../core/alerts/task-event.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { type EnrichmentOptions, enrichTaskEvent } from "../../../../core/task-events/enrich-task-event.ts";
import { APP_SALES, TASK_SALES, TASK_UNKNOWN } from "../../../../local/simulated-platform/catalogue.ts";
import {
  OWNER_EMAIL,
  recordExecution,
  TASK_EXTERNAL_PROGRAM,
} from "../../../../local/simulated-platform/task-routes.ts";
import { startTestPlatform, type TestPlatform } from "../../../fixtures/platform/test-platform.ts";

const FAST: EnrichmentOptions = {
  execution: { attempts: 2, retryDelayMs: 20 },
  scriptLog: { attempts: 2, retryDelayMs: 20, downloadDelayMs: 0 },
};

let sim: TestPlatform;
let client: RepositoryClient;

beforeAll(async () => {
  sim = await startTestPlatform();
  client = createRepositoryClient({
    connection: sim.connection({ timeoutMs: 500 }),
    tls: await loadPlatformTlsMaterial(sim.certificates),
    clock: systemClock,
  });
});

afterAll(async () => {
  client?.close();
  await sim?.stop();
});

beforeEach(() => sim.reset());

function event(kind: TaskEventKind, overrides: Partial<TaskEvent> = {}): TaskEvent {
  return {
    kind,
    prefix: `/scheduler-task-${kind}/`,
    hostName: "qs-node1",
    taskName: "Reload Sales",
    appName: "Sales dashboard",
    user: "INTERNAL\\sa_scheduler",
    taskId: TASK_SALES,
    appId: APP_SALES,
    logTimeStamp: "2026-11-27 02:01:00,000",
    logLevel: "ERROR",
    executionId: randomUUID(),
    logMessage: "Max retries reached",
    receivedAtMs: Date.now(),
    sender: "127.0.0.1",
    ...overrides,
  };
}

async function alertOf(e: TaskEvent): Promise<TaskAlert> {
  const enrichment = await enrichTaskEvent(e, FAST, {
    repository: createTaskRepository(client),
    clock: systemClock,
  });
  if (enrichment.outcome !== "alert") throw new Error(`no alert: ${enrichment.reason}`);
  return enrichment.alert;
}

function record(e: TaskEvent, outcome: "failed" | "aborted" | "success", stoppedAtMs = Date.now()) {
  recordExecution(sim.repository.taskEvents, {
    executionId: e.executionId,
    taskId: e.taskId,
    outcome,
    stoppedAtMs,
  });
}

describe("task-event enrichment: each lookup over mutual TLS", () => {
  it("finds the task, the app, this execution's result, its script log and the app owner", async () => {
    const failed = event("failed");
    record(failed, "failed", Date.parse("2026-11-27T02:01:00.000Z"));
    const alert = await alertOf(failed);
    expect(alert.kind).toBe("reloadTaskFailure");
    expect(alert.task).toMatchObject({ available: true, value: { name: "Reload Sales", taskType: 0 } });
    expect(alert.app).toMatchObject({
      available: true,
      value: { name: "Sales dashboard", streamName: "Finance" },
    });
    expect(alert.execution).toMatchObject({
      available: true,
      value: {
        executionId: failed.executionId,
        status: 8,
        statusText: "FinishedFail",
        stopTime: "2026-11-27T02:01:00.000Z",
        durationMs: 60_000,
        executingNodeName: "qs-node1",
      },
    });
    expect(alert.scriptLog).toMatchObject({ available: true, value: { lineCount: 5 } });
    expect(alert.appOwner).toMatchObject({
      available: true,
      value: { userId: "aberg", emails: [OWNER_EMAIL] },
    });
    const calls = sim.repository.calls.map((call) => call.path);
    expect(calls).toContain("/qrs/executionresult/full");
    expect(calls.some((path) => path.endsWith("/scriptlog.txt"))).toBe(true);
    expect(new Set(sim.repository.calls.map((call) => call.clientCertCn)).size).toBe(1);
  });

  it("names the kind by the task's type: a failed external program task", async () => {
    const failed = event("failed", { taskId: TASK_EXTERNAL_PROGRAM, appId: "", appName: "" });
    record(failed, "failed");
    const alert = await alertOf(failed);
    expect(alert.kind).toBe("externalProgramTaskFailure");
    expect(alert.scriptLog).toMatchObject({
      available: false,
      reason: "only reload tasks write a script log",
    });
  });
});

describe("task-event enrichment: each lookup failing still makes the alert", () => {
  it("an execution the repository does not know: execution and script log not available", async () => {
    const alert = await alertOf(event("failed"));
    expect(alert.execution).toMatchObject({ available: false, reason: expect.stringContaining("no result") });
    expect(alert.scriptLog.available).toBe(false);
    expect(alert.task.available).toBe(true);
  });

  it("a script log that cannot be downloaded: only the log is not available", async () => {
    const failed = event("failed");
    record(failed, "failed");
    sim.repository.taskEvents.scriptLogFault = true;
    const alert = await alertOf(failed);
    expect(alert.scriptLog).toMatchObject({ available: false, reason: expect.stringContaining("404") });
    expect(alert.execution.available).toBe(true);
  });

  it("a log already downloadable: taken at once, with no wait between the ticket and the download", async () => {
    const failed = event("failed");
    record(failed, "failed");
    const waits: number[] = [];
    const recordingClock = {
      ...systemClock,
      setTimeout: (callback: () => void, ms: number) => {
        waits.push(ms);
        return systemClock.setTimeout(callback, ms);
      },
    };
    const paced = { ...FAST, scriptLog: { ...FAST.scriptLog, downloadDelayMs: 400 } };
    const enrichment = await enrichTaskEvent(failed, paced, {
      repository: createTaskRepository(client),
      clock: recordingClock,
    });
    expect(enrichment.outcome === "alert" && enrichment.alert.scriptLog.available).toBe(true);
    expect(waits).not.toContain(400);
    expect(sim.repository.calls.filter((call) => call.path.endsWith("/scriptlog.txt"))).toHaveLength(1);
  });

  it("a log not downloadable yet: the download at once is refused, the paced attempt after it gets the log", async () => {
    const failed = event("failed");
    sim.repository.taskEvents.scriptLogDelayMs = 150;
    record(failed, "failed");
    const paced = { ...FAST, scriptLog: { ...FAST.scriptLog, downloadDelayMs: 300 } };
    const enrichment = await enrichTaskEvent(failed, paced, {
      repository: createTaskRepository(client),
      clock: systemClock,
    });
    expect(enrichment.outcome === "alert" && enrichment.alert.scriptLog.available).toBe(true);
    // More than one download: had the attempt at once found the log, it would have been the only one.
    const downloads = sim.repository.calls.filter((call) => call.path.endsWith("/scriptlog.txt"));
    expect(downloads.length).toBeGreaterThan(1);
  });

  it("a repository that answers 500 to everything: every part not available, the alert still made", async () => {
    sim.repository.fault = "status500";
    const alert = await alertOf(event("aborted"));
    expect(alert.kind).toBe("reloadTaskAborted");
    for (const part of [alert.task, alert.app, alert.execution, alert.scriptLog, alert.appOwner]) {
      expect(part.available).toBe(false);
    }
    expect(alert.task).toMatchObject({ reason: expect.stringContaining("500") });
  });
});

describe("task-event enrichment: a task the repository does not know", () => {
  async function enrichmentOf(e: TaskEvent) {
    return enrichTaskEvent(e, FAST, { repository: createTaskRepository(client), clock: systemClock });
  }

  it("an empty list for the task: no alert, and nothing looked up after the task and the event's app", async () => {
    const enrichment = await enrichmentOf(event("failed", { taskId: TASK_UNKNOWN }));
    expect(enrichment).toEqual({ outcome: "unknown_task", reason: expect.stringContaining(TASK_UNKNOWN) });
    expect(sim.repository.calls.map((call) => call.path).sort()).toEqual(["/qrs/app/full", "/qrs/task/full"]);
  });

  it("a 404 for the task: no alert either", async () => {
    sim.repository.fault = "status404";
    const enrichment = await enrichmentOf(event("aborted", { taskId: TASK_UNKNOWN }));
    expect(enrichment.outcome).toBe("unknown_task");
  });
});
