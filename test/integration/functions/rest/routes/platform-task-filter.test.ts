/**
 * The task start with startTaskFilter on, through the whole REST app against the simulated
 * platform: a task the list allows (by id, tag or custom property value) starts; one it does not
 * allow is refused with 403 in the API's error shape, naming the task and why, while the allowed
 * tasks of the same call still start; every task is counted under its outcome.
 */
import type { Hono } from "hono";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type ClosablePlatformClient,
  createQlikPlatformClient,
} from "../../../../../core/adapters/platform/platform-client.ts";
import { loadPlatformTlsMaterial } from "../../../../../core/adapters/platform/tls-material.ts";
import { parseConfig } from "../../../../../core/config/index.ts";
import { createStartTaskFilter, NOT_ALLOWED } from "../../../../../core/platform/start-task-filter.ts";
import {
  createTaskStartCounts,
  type TaskStartCounts,
} from "../../../../../core/platform/task-start-counts.ts";
import { systemClock } from "../../../../../core/system-clock.ts";
import { createApp } from "../../../../../functions/rest/app.ts";
import {
  TASK_FINANCE,
  TASK_HR,
  TASK_SALES,
  TASK_UNKNOWN,
} from "../../../../../local/simulated-platform/catalogue.ts";
import { startTestPlatform, type TestPlatform } from "../../../../fixtures/platform/test-platform.ts";
import { recordingLogger } from "../../../../helpers/recording-logger.ts";
import { localEdgeDeps } from "../../../../helpers/rest-app.ts";

let sim: TestPlatform;
let client: ClosablePlatformClient;
let app: Hono;
let counts: TaskStartCounts;
const logger = recordingLogger();

/** Allows Reload Finance by id, the tasks tagged `hr` (Reload HR) and those of Department HR. */
const ALLOW = {
  enable: true,
  allowTask: { taskId: [TASK_FINANCE], tag: ["hr"], customProperty: [{ name: "Department", value: "HR" }] },
};

function buildApp(): Hono {
  const parsed = parseConfig({
    Service: {
      restServer: { endpointsEnable: { reloadTaskStart: true }, rateLimit: { enable: false } },
      platform: { host: "localhost" },
    },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  counts = createTaskStartCounts();
  return createApp({
    ...localEdgeDeps(),
    config: parsed.config.restServer,
    logger,
    services: {
      platform: { platform: client, startFilter: createStartTaskFilter(ALLOW), startCounts: counts },
    },
  });
}

async function start(
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await app.request(`/v4/reloadtask/${path}/start`, {
    method: "PUT",
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  sim = await startTestPlatform();
  client = createQlikPlatformClient({
    connection: sim.connection(),
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
  app = buildApp();
});

describe("PUT /v4/reloadtask/{taskId}/start with startTaskFilter on: allowed tasks", () => {
  it("starts a task whose id is listed", async () => {
    const answer = await start(TASK_FINANCE);
    expect(answer.status).toBe(200);
    expect(answer.body.tasksId).toEqual({
      started: [{ taskId: TASK_FINANCE, taskName: "Reload Finance" }],
      invalid: [],
      denied: [],
    });
    expect(sim.repository.startedTaskIds).toEqual([TASK_FINANCE]);
    expect(counts.totals()).toEqual({ "rest.started": 1 });
  });

  it("starts a task named by id that carries a listed tag, its id not being listed", async () => {
    const answer = await start(TASK_HR);
    expect(answer.status).toBe(200);
    expect(sim.repository.startedTaskIds).toEqual([TASK_HR]);
  });

  it("starts the tasks a custom property selects when they hold a listed value", async () => {
    const answer = await start("-", [
      {
        type: "starttaskcustomproperty",
        payload: { customPropertyName: "Department", customPropertyValue: "HR" },
      },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body.tasksCP).toEqual([{ taskId: TASK_HR, taskName: "Reload HR" }]);
    expect(sim.repository.startedTaskIds).toEqual([TASK_HR]);
  });
});

describe("PUT /v4/reloadtask/{taskId}/start with startTaskFilter on: refused tasks", () => {
  it("answers 403 naming the task and the reason, and starts nothing, for a task the list does not allow", async () => {
    const answer = await start(TASK_SALES);
    expect(answer).toEqual({
      status: 403,
      body: {
        statusCode: 403,
        error: "Forbidden",
        message: `Task start refused for "Reload Sales" (${TASK_SALES}): ${NOT_ALLOWED}; started: none`,
      },
    });
    expect(sim.repository.startedTaskIds).toEqual([]);
    expect(sim.repository.calls.filter((call) => call.method === "POST")).toEqual([]);
    expect(counts.totals()).toEqual({ "rest.refused": 1 });
    const warning = logger
      .at("warn")
      .find((entry) => entry.message === "task start refused by startTaskFilter");
    expect(String(warning?.fields?.reason)).toContain("Reload Sales");
  });

  it("still starts the allowed tasks of a call that names a refused one, and names both in the 403", async () => {
    const answer = await start(TASK_SALES, [{ type: "starttaskid", payload: { taskId: TASK_FINANCE } }]);
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(
      `Task start refused for "Reload Sales" (${TASK_SALES}): ${NOT_ALLOWED}; started: ${TASK_FINANCE}`,
    );
    expect(sim.repository.startedTaskIds).toEqual([TASK_FINANCE]);
    expect(counts.totals()).toEqual({ "rest.refused": 1, "rest.started": 1 });
  });

  it("starts, of the tasks a tag selects, those the list allows and refuses the others", async () => {
    // Reload Sales and Reload Finance carry `nightly`, which is not listed; Finance's id is.
    const answer = await start("-", [{ type: "starttasktag", payload: { tag: "nightly" } }]);
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(
      `Task start refused for "Reload Sales" (${TASK_SALES}): ${NOT_ALLOWED}; started: ${TASK_FINANCE}`,
    );
    expect(sim.repository.startedTaskIds).toEqual([TASK_FINANCE]);
  });

  it("counts ids that are not GUIDs or that the platform does not know, starting nothing for them", async () => {
    const answer = await start("not-a-guid", [{ type: "starttaskid", payload: { taskId: TASK_UNKNOWN } }]);
    expect(answer.status).toBe(200);
    expect(answer.body.tasksId).toEqual({
      started: [],
      invalid: [{ taskId: "not-a-guid" }, { taskId: TASK_UNKNOWN }],
      denied: [],
    });
    expect(counts.totals()).toEqual({ "rest.malformed": 1, "rest.unknown": 1 });
  });

  it("counts every task a call named as failed when the platform cannot be asked", async () => {
    sim.repository.fault = "status500";
    const answer = await start(TASK_FINANCE, [{ type: "starttasktag", payload: { tag: "hr" } }]);
    expect(answer.status).toBe(502);
    expect(counts.totals()).toEqual({ "rest.failed": 2 });
  });
});
