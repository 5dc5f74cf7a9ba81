/**
 * The alert kinds: one per task type and outcome, named as the configuration blocks that switch
 * each destination per kind (`emailNotification.reloadTaskFailure`, `taskEvents.timeseriesdb.
 * preloadTaskSuccess`, ...). The scheduler's task types are numbered by the repository (`taskType`
 * of a task); an aborted run is only an alert kind for reload tasks, as only those have one.
 */
import type { TaskEventKind } from "./task-event.ts";

export const ALERT_KINDS = [
  "reloadTaskFailure",
  "reloadTaskAborted",
  "reloadTaskSuccess",
  "externalProgramTaskFailure",
  "externalProgramTaskSuccess",
  "userSyncTaskFailure",
  "userSyncTaskSuccess",
  "distributeTaskFailure",
  "distributeTaskSuccess",
  "preloadTaskFailure",
  "preloadTaskSuccess",
] as const;

export type AlertKind = (typeof ALERT_KINDS)[number];

/** The repository's `taskType` numbers. */
export const TASK_TYPES = {
  reload: 0,
  externalProgram: 1,
  userSync: 2,
  distribute: 3,
  preload: 4,
} as const;

export type TaskTypeName = keyof typeof TASK_TYPES;
export type TaskType = (typeof TASK_TYPES)[TaskTypeName];

/** The task type of a repository `taskType` value; a missing or unknown value is a reload task, as the repository's default. */
export function taskTypeOf(value: unknown): TaskType {
  return value === 1 || value === 2 || value === 3 || value === 4 ? value : TASK_TYPES.reload;
}

/** The outcome a run ended with, once a distribute run's result is known. */
export type RunOutcome = "failed" | "aborted" | "success";

const KIND_BY_TYPE: Readonly<Record<TaskType, Partial<Record<RunOutcome, AlertKind>>>> = {
  0: { failed: "reloadTaskFailure", aborted: "reloadTaskAborted", success: "reloadTaskSuccess" },
  1: { failed: "externalProgramTaskFailure", success: "externalProgramTaskSuccess" },
  2: { failed: "userSyncTaskFailure", success: "userSyncTaskSuccess" },
  3: { failed: "distributeTaskFailure", success: "distributeTaskSuccess" },
  4: { failed: "preloadTaskFailure", success: "preloadTaskSuccess" },
};

/** The alert kind of a run of a task type, or undefined (an aborted run of a task that is not a reload). */
export function alertKindFor(outcome: RunOutcome, taskType: TaskType): AlertKind | undefined {
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

/** The alert kinds of failures (reload, external program, user sync, distribute, preload). */
export const FAILURE_KINDS: readonly AlertKind[] = ALERT_KINDS.filter((kind) => kind.endsWith("Failure"));
