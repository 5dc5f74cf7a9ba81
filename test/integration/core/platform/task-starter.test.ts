import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type ClosablePlatformClient,
  createQlikPlatformClient,
} from "../../../../core/adapters/platform/platform-client.ts";
import { loadPlatformTlsMaterial } from "../../../../core/adapters/platform/tls-material.ts";
import { PlatformTimeoutError, TaskNotFoundError } from "../../../../core/platform/errors.ts";
import { createPlatformTaskStarter } from "../../../../core/platform/task-starter.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { TASK_FINANCE, TASK_UNKNOWN } from "../../../../local/simulated-platform/catalogue.ts";
import { startTestPlatform, type TestPlatform } from "../../../fixtures/platform/test-platform.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

let sim: TestPlatform;
let client: ClosablePlatformClient;

beforeAll(async () => {
  sim = await startTestPlatform();
  client = createQlikPlatformClient({
    connection: sim.connection({ timeoutMs: 300 }),
    tls: await loadPlatformTlsMaterial(sim.certificates),
    clock: systemClock,
    logger: recordingLogger(),
  });
});

afterAll(async () => {
  client?.close();
  await sim?.stop();
});

beforeEach(() => sim.reset());

describe("platform TaskStarter (what a firing schedule calls)", () => {
  it("starts the task through the repository, which records the start", async () => {
    await createPlatformTaskStarter(client).startTask(TASK_FINANCE.toUpperCase());
    expect(sim.repository.startedTaskIds).toEqual([TASK_FINANCE]);
    expect(sim.repository.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      `POST /qrs/task/${TASK_FINANCE}/start/synchronous`,
    ]);
  });

  it("rejects with TaskNotFoundError for a task the platform does not know", async () => {
    await expect(createPlatformTaskStarter(client).startTask(TASK_UNKNOWN)).rejects.toBeInstanceOf(
      TaskNotFoundError,
    );
  });

  it("rejects with PlatformTimeoutError when the platform does not answer", async () => {
    sim.repository.fault = "hang";
    await expect(createPlatformTaskStarter(client).startTask(TASK_FINANCE)).rejects.toBeInstanceOf(
      PlatformTimeoutError,
    );
  });
});
