/**
 * The execution result of THIS run: never the task's latest run unless it is this run, and read
 * again while the repository has not stored the run's final status yet.
 */
import { describe, expect, it } from "vitest";
import type { TaskEvent } from "../../../../core/alerts/task-event.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { lookUpExecution } from "../../../../core/task-events/execution-lookup.ts";
import type {
  RepositoryExecution,
  RepositoryTask,
  TaskRepository,
} from "../../../../core/task-events/task-repository.ts";
import { failedAlert } from "../../../helpers/task-alert-fixture.ts";

const EVENT: TaskEvent = failedAlert().event;
const OTHER_RUN = "5f0bea52-127d-4a77-9e21-6c23f959df7a";
const OPTIONS = { attempts: 3, retryDelayMs: 1 };

function result(executionId: string, status: number): RepositoryExecution {
  return {
    executionId,
    resultId: `${executionId.slice(0, 8)}-0000-4000-8000-000000000001`,
    taskId: EVENT.taskId,
    status,
    statusText: String(status),
    executingNodeName: "qs-node1",
    startTime: "2026-11-27T02:00:00.000Z",
    stopTime: status >= 6 ? "2026-11-27T02:01:00.000Z" : undefined,
    durationMs: 60_000,
    details: [],
    scriptLogSize: 0,
    fileReferenceId: "00000000-0000-0000-0000-000000000000",
    scriptLogAvailable: false,
  };
}

function repository(answers: RepositoryExecution[][]): TaskRepository & { calls: number } {
  const repo = {
    calls: 0,
    async executionResults() {
      repo.calls += 1;
      return answers[Math.min(repo.calls - 1, answers.length - 1)] ?? [];
    },
  };
  return repo as unknown as TaskRepository & { calls: number };
}

const taskWithLast = (last: RepositoryExecution) => ({ lastExecution: last }) as unknown as RepositoryTask;

describe("the execution result of this run", () => {
  it("takes the result whose execution id is the event's, not another run's", async () => {
    const repo = repository([[result(OTHER_RUN, 7), result(EVENT.executionId, 8)]]);
    const found = await lookUpExecution(EVENT, undefined, OPTIONS, { repository: repo, clock: systemClock });
    expect(found).toMatchObject({ available: true, value: { executionId: EVENT.executionId, status: 8 } });
  });

  it("falls back to the task's latest run only when it is this run", async () => {
    const repo = repository([[]]);
    const same = await lookUpExecution(EVENT, taskWithLast(result(EVENT.executionId, 8)), OPTIONS, {
      repository: repo,
      clock: systemClock,
    });
    expect(same).toMatchObject({ available: true, value: { executionId: EVENT.executionId } });
    const other = await lookUpExecution(EVENT, taskWithLast(result(OTHER_RUN, 7)), OPTIONS, {
      repository: repo,
      clock: systemClock,
    });
    expect(other).toMatchObject({
      available: false,
      reason: expect.stringContaining("latest run is another execution"),
    });
  });

  it("reads the result again while the run has not ended, up to the attempts", async () => {
    const repo = repository([
      [result(EVENT.executionId, 2)],
      [result(EVENT.executionId, 2)],
      [result(EVENT.executionId, 8)],
    ]);
    const found = await lookUpExecution(EVENT, undefined, OPTIONS, { repository: repo, clock: systemClock });
    expect(found).toMatchObject({ available: true, value: { status: 8 } });
    expect(repo.calls).toBe(3);
  });

  it("says why when the datagram carries no execution id", async () => {
    const found = await lookUpExecution({ ...EVENT, executionId: "" }, undefined, OPTIONS, {
      repository: repository([[]]),
      clock: systemClock,
    });
    expect(found).toEqual({ available: false, reason: "the datagram carries no execution id" });
  });
});
