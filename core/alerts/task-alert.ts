/**
 * The reload-task alert, a TaskAlert: one task event, the alert kind it became, and what the
 * repository told about it.
 * Each part of the enrichment (task, app, this execution's result, its script log, the app's
 * owner) is either the data or "not available" with the reason, so that a lookup that fails
 * never loses the alert: every destination sends what is known and says what is missing. One
 * TaskAlert is made per event and shared by every destination; none of them changes it.
 */
import type { TaskEvent } from "./task-event.ts";

/**
 * The kinds of a reload-task alert: one per task type and outcome, named as the configuration
 * blocks that switch each destination per kind (`emailNotification.reloadTaskFailure`,
 * `taskEvents.timeseriesdb.preloadTaskSuccess`, ...). An aborted run is only a kind for reload
 * tasks, as only those have one.
 */
export const TASK_ALERT_KINDS = [
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

export type TaskAlertKind = (typeof TASK_ALERT_KINDS)[number];

export function isTaskAlertKind(kind: string): kind is TaskAlertKind {
  return (TASK_ALERT_KINDS as readonly string[]).includes(kind);
}

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

/** What the enrichment found: the data, or why there is none. */
export type Enriched<T> =
  | { readonly available: true; readonly value: T }
  | { readonly available: false; readonly reason: string };

export function available<T>(value: T): Enriched<T> {
  return { available: true, value };
}

export function notAvailable<T = never>(reason: string): Enriched<T> {
  return { available: false, reason };
}

/** The data of a part, or undefined when it is not available. */
export function foundValue<T>(part: Enriched<T>): T | undefined {
  return part.available ? part.value : undefined;
}

/** A custom property's value on a task or app. */
export interface CustomPropertyValue {
  readonly name: string;
  readonly value: string;
}

/** The task (`GET /qrs/task/full`). Times are ISO texts as the repository writes them. */
export interface TaskInfo {
  readonly id: string;
  readonly name: string;
  readonly taskType: TaskType;
  readonly tags: readonly string[];
  readonly customProperties: readonly CustomPropertyValue[];
  readonly isManuallyTriggered: boolean;
  readonly isPartialReload: boolean;
  readonly maxRetries: number;
  readonly modifiedByUserName: string;
  readonly modifiedDate: string;
  /** Minutes (`taskSessionTimeout`). */
  readonly sessionTimeout: number;
  /** ISO time of the next scheduled run, or undefined when none is scheduled. */
  readonly nextExecution: string | undefined;
}

/** The task's app (`GET /qrs/app/full`). */
export interface AppInfo {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  /** Bytes. */
  readonly fileSize: number;
  /** ISO time of the last successful reload, or undefined when never. */
  readonly lastReloadTime: string | undefined;
  readonly modifiedDate: string;
  readonly modifiedByUserName: string;
  /** ISO time it was published, or undefined when not published. */
  readonly publishTime: string | undefined;
  readonly published: boolean;
  /** The stream's name, `''` when not published. */
  readonly streamName: string;
  readonly tags: readonly string[];
  readonly customProperties: readonly CustomPropertyValue[];
}

/** One line of an execution's details, as the management console lists them. */
export interface ExecutionDetail {
  /** ISO time. */
  readonly at: string;
  readonly message: string;
  readonly detailsType: number;
}

/** The result of THIS execution (the datagram's execution id), not merely the task's latest. */
export interface ExecutionInfo {
  readonly executionId: string;
  readonly status: number;
  /** `FinishedFail`, `Aborted`, ... (execution-status.ts). */
  readonly statusText: string;
  readonly executingNodeName: string;
  /** ISO times, undefined when the run has none (never started, still running). */
  readonly startTime: string | undefined;
  readonly stopTime: string | undefined;
  readonly durationMs: number;
  /** Sorted by time, oldest first. */
  readonly details: readonly ExecutionDetail[];
  /** Size in bytes the repository reports for the script log (0 when none). */
  readonly scriptLogSize: number;
}

/** The whole script log of this execution; head and tail are taken per destination (headLines, tailLines). */
export interface ScriptLog {
  /** The lines, without their line ends. */
  readonly lines: readonly string[];
  readonly lineCount: number;
  /** Characters of the text as downloaded. */
  readonly characters: number;
}

/** The app's owner (`GET /qrs/app/{id}` then `GET /qrs/user/{owner id}`). */
export interface AppOwner {
  readonly id: string;
  readonly name: string;
  readonly userDirectory: string;
  readonly userId: string;
  /** Every `email` attribute of the user, in the repository's order; may be empty. */
  readonly emails: readonly string[];
}

export interface TaskAlert {
  readonly event: TaskEvent;
  readonly kind: TaskAlertKind;
  readonly task: Enriched<TaskInfo>;
  readonly app: Enriched<AppInfo>;
  readonly execution: Enriched<ExecutionInfo>;
  readonly scriptLog: Enriched<ScriptLog>;
  readonly appOwner: Enriched<AppOwner>;
}

/** The first `count` lines of the log (all of them when it is shorter). */
export function headLines(log: ScriptLog, count: number): readonly string[] {
  return count <= 0 ? [] : log.lines.slice(0, count);
}

/** The last `count` lines of the log (all of them when it is shorter; head and tail may overlap). */
export function tailLines(log: ScriptLog, count: number): readonly string[] {
  return count <= 0 ? [] : log.lines.slice(-count);
}

/** `{part: reason}` of every part that is not available, for logs and plain fallbacks. */
export function unavailableParts(
  alert: Pick<TaskAlert, "task" | "app" | "execution" | "scriptLog" | "appOwner">,
): Record<string, string> {
  const parts = {
    task: alert.task,
    app: alert.app,
    execution: alert.execution,
    scriptLog: alert.scriptLog,
    appOwner: alert.appOwner,
  };
  const out: Record<string, string> = {};
  for (const [name, part] of Object.entries(parts)) if (!part.available) out[name] = part.reason;
  return out;
}
