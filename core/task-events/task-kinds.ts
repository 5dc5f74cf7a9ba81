/**
 * Which kind of reload-task alert a run becomes: the task's type (numbered by the repository) and
 * the run's outcome. An aborted run is only a kind for reload tasks, as only those have one.
 */
import { TASK_TYPES, type TaskAlertKind, type TaskEventKind, type TaskType } from "../alerts/index.ts";

/** The outcome a run ended with, once a distribute run's result is known. */
export type RunOutcome = "failed" | "aborted" | "success";

const KIND_BY_TYPE: Readonly<Record<TaskType, Partial<Record<RunOutcome, TaskAlertKind>>>> = {
  [TASK_TYPES.reload]: {
    failed: "reloadTaskFailure",
    aborted: "reloadTaskAborted",
    success: "reloadTaskSuccess",
  },
  [TASK_TYPES.externalProgram]: {
    failed: "externalProgramTaskFailure",
    success: "externalProgramTaskSuccess",
  },
  [TASK_TYPES.userSync]: { failed: "userSyncTaskFailure", success: "userSyncTaskSuccess" },
  [TASK_TYPES.distribute]: { failed: "distributeTaskFailure", success: "distributeTaskSuccess" },
  [TASK_TYPES.preload]: { failed: "preloadTaskFailure", success: "preloadTaskSuccess" },
};

/** The alert kind of a run of a task type, or undefined (an aborted run of a task that is not a reload). */
export function alertKindFor(outcome: RunOutcome, taskType: TaskType): TaskAlertKind | undefined {
  return KIND_BY_TYPE[taskType][outcome];
}

/** The repository's execution status numbers that end a run, and the outcome of each. */
const FINAL_STATUS: Readonly<Record<number, RunOutcome>> = {
  6: "aborted",
  7: "success",
  8: "failed",
  11: "failed",
};

/**
 * The outcome of an event: the datagram's own for failed, aborted and success events; for a
 * distribute event, the one its execution status says (aborted counts as failed, as a distribute
 * task has no aborted kind), or undefined while the status does not end a run.
 */
export function runOutcomeOf(
  kind: TaskEventKind,
  executionStatus: number | undefined,
): RunOutcome | undefined {
  if (kind !== "distribute") return kind;
  const outcome = executionStatus === undefined ? undefined : FINAL_STATUS[executionStatus];
  return outcome === "aborted" ? "failed" : outcome;
}
