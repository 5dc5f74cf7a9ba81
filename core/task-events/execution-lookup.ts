/**
 * The result of THIS execution: the repository's execution results filtered by the datagram's
 * execution id (and its task, should an id ever repeat), never simply the task's latest run,
 * which may already be the next run when tasks chain or are restarted by hand. The task's latest
 * result stands in only when its execution id is the datagram's (a platform that answered the
 * execution-result call with nothing, or failed it).
 *
 * The appender logs the outcome as the scheduler decides it, which can be a moment before the
 * repository has stored the run's final status and stop time, so a result whose status does not
 * end a run yet is read again, `attempts` times in all, `retryDelayMs` apart.
 */

import { available, type Enriched, notAvailable, type TaskEvent } from "../alerts/index.ts";
import type { Clock } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import { lookupWait } from "./lookup-wait.ts";
import type { RepositoryExecution, RepositoryTask, TaskRepository } from "./task-repository.ts";

export interface ExecutionLookupOptions {
  readonly attempts: number;
  readonly retryDelayMs: number;
}

export interface ExecutionLookupDeps {
  readonly repository: TaskRepository;
  readonly clock: Clock;
  readonly signal?: AbortSignal | undefined;
}

/** Aborted, FinishedSuccess, FinishedFail, Skipped, Error, Reset. */
const RUN_ENDED = new Set([6, 7, 8, 9, 11, 12]);

export async function lookUpExecution(
  event: TaskEvent,
  task: RepositoryTask | undefined,
  options: ExecutionLookupOptions,
  deps: ExecutionLookupDeps,
): Promise<Enriched<RepositoryExecution>> {
  if (event.executionId === "") return notAvailable("the datagram carries no execution id");
  let found: Enriched<RepositoryExecution> = notAvailable("not looked up");
  for (let attempt = 1; attempt <= Math.max(1, options.attempts); attempt++) {
    if (attempt > 1) await lookupWait(options.retryDelayMs, deps.clock, deps.signal);
    found = await readOnce(event, attempt === 1 ? task : undefined, deps);
    if (!found.available || RUN_ENDED.has(found.value.status)) return found;
  }
  return found;
}

async function readOnce(
  event: TaskEvent,
  task: RepositoryTask | undefined,
  deps: ExecutionLookupDeps,
): Promise<Enriched<RepositoryExecution>> {
  let reason: string;
  try {
    const results = (await deps.repository.executionResults(event.executionId, deps.signal)).filter(
      (result) =>
        result.executionId === event.executionId && (result.taskId === "" || result.taskId === event.taskId),
    );
    const latest = results.sort((a, b) => runTime(b).localeCompare(runTime(a)))[0];
    if (latest !== undefined) return available(latest);
    reason = `the repository has no result for execution ${event.executionId}`;
  } catch (error) {
    reason = `reading the execution result failed: ${describeError(error)}`;
  }
  const last = task?.lastExecution;
  if (last !== undefined && last.executionId === event.executionId) return available(last);
  return notAvailable(last === undefined ? reason : `${reason} (the task's latest run is another execution)`);
}

function runTime(result: RepositoryExecution): string {
  return result.stopTime ?? result.startTime ?? "";
}
