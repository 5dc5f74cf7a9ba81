/**
 * Enrichment of one task event, once, for every destination: the task, its app, the result of
 * this execution, the script log and the app's owner, read from the repository in rounds (task
 * and app at once; then execution; then script log and owner, which need them). Nothing here
 * throws: a lookup that fails leaves its part "not available" with the reason, and the alert is
 * still made. Then the alert kind: the task's type (a reload task when the task could not be
 * read, as the repository's own default; a distribute task for a distribute event) with the
 * outcome — the datagram's, or for a distribute event the one its execution status says.
 *
 * A task the repository answers it does not know (an empty list or a 404, as opposed to an
 * outage) makes no alert and no further lookup: the datagram is forged (anyone who can reach
 * the UDP port can send one, with a fresh task id each time) or stale (the task was deleted),
 * and an alert would carry the sender's text to every destination. An outage still alerts, with
 * the task "not available", because a failed reload must not go unheard while the repository is
 * down.
 */

import {
  available,
  type Enriched,
  foundValue,
  notAvailable,
  type ScriptLog,
  TASK_TYPES,
  type TaskAlert,
  type TaskEvent,
  type TaskType,
} from "../alerts/index.ts";
import type { Clock } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import { lookUpAppOwner } from "./app-owner-lookup.ts";
import { type ExecutionLookupOptions, lookUpExecution } from "./execution-lookup.ts";
import { downloadScriptLog, type ScriptLogOptions } from "./script-log-download.ts";
import { alertKindFor, runOutcomeOf } from "./task-kinds.ts";
import type {
  RepositoryApp,
  RepositoryExecution,
  RepositoryTask,
  TaskRepository,
} from "./task-repository.ts";

export interface EnrichmentOptions {
  readonly execution: ExecutionLookupOptions;
  readonly scriptLog: ScriptLogOptions;
}

/** The timings the platform needs (a run's final status and its log appear a moment after the event). */
export const DEFAULT_ENRICHMENT_OPTIONS: EnrichmentOptions = {
  execution: { attempts: 4, retryDelayMs: 1000 },
  scriptLog: { attempts: 3, retryDelayMs: 2000, downloadDelayMs: 500 },
};

export interface EnrichmentDeps {
  readonly repository: TaskRepository;
  readonly clock: Clock;
  /** Aborts every lookup still running (at shutdown). */
  readonly signal?: AbortSignal | undefined;
}

/** What the repository told about an event, whether or not it became an alert. */
export type EnrichedParts = Omit<TaskAlert, "kind">;

export type Enrichment =
  | { readonly outcome: "alert"; readonly alert: TaskAlert }
  /** No alert kind: a distribute run whose result is not final, or an aborted run of a task that is not a reload. */
  | { readonly outcome: "unresolved" | "ignored"; readonly reason: string; readonly parts: EnrichedParts }
  /** The repository answered that the task does not exist: nothing else was looked up. */
  | { readonly outcome: "unknown_task"; readonly reason: string };

/** What the task lookup found: the task, an outage (not available), or no such task. */
type TaskLookup = Enriched<RepositoryTask> | "unknown";

export async function enrichTaskEvent(
  event: TaskEvent,
  options: EnrichmentOptions,
  deps: EnrichmentDeps,
): Promise<Enrichment> {
  const { repository, signal } = deps;
  const [task, appFromEvent] = await Promise.all([
    lookUpTask(event.taskId, repository, signal),
    event.appId === "" ? undefined : lookUpApp(event.appId, repository, signal),
  ]);
  if (task === "unknown")
    return { outcome: "unknown_task", reason: `the repository knows no task ${event.taskId}` };
  const appId = event.appId || (foundValue(task)?.appId ?? "");
  const [execution, app] = await Promise.all([
    lookUpExecution(event, foundValue(task), options.execution, deps),
    appFromEvent ??
      (appId === ""
        ? notAvailable<RepositoryApp>("the task has no app")
        : lookUpApp(appId, repository, signal)),
  ]);
  const taskType: TaskType =
    foundValue(task)?.taskType ?? (event.kind === "distribute" ? TASK_TYPES.distribute : TASK_TYPES.reload);
  const [scriptLog, appOwner] = await Promise.all([
    scriptLogOf(execution, taskType, options.scriptLog, deps),
    lookUpAppOwner(appId, foundValue(app), repository, signal),
  ]);
  const parts: EnrichedParts = { event, task, app, execution, scriptLog, appOwner };
  const outcome = runOutcomeOf(event.kind, foundValue(execution)?.status);
  if (outcome === undefined) {
    const status = foundValue(execution)?.statusText;
    const reason =
      status === undefined ? "its execution result is not available" : `its run has not ended (${status})`;
    return { outcome: "unresolved", reason: `the distribute event has no outcome: ${reason}`, parts };
  }
  const kind = alertKindFor(outcome, taskType);
  if (kind === undefined)
    return { outcome: "ignored", reason: `an ${outcome} run of a task of type ${taskType}`, parts };
  return { outcome: "alert", alert: { ...parts, kind } };
}

async function lookUp<T>(read: () => Promise<T | undefined>, unknown: string): Promise<Enriched<T>> {
  try {
    const value = await read();
    return value === undefined ? notAvailable(unknown) : available(value);
  } catch (error) {
    return notAvailable(describeError(error));
  }
}

async function lookUpTask(
  taskId: string,
  repository: TaskRepository,
  signal: AbortSignal | undefined,
): Promise<TaskLookup> {
  try {
    const task = await repository.task(taskId, signal);
    return task === undefined ? "unknown" : available(task);
  } catch (error) {
    return notAvailable(describeError(error));
  }
}

function lookUpApp(appId: string, repository: TaskRepository, signal: AbortSignal | undefined) {
  return lookUp(() => repository.app(appId, signal), `the repository knows no app ${appId}`);
}

/** Only reload tasks write a script log; it is found through this execution's result. */
async function scriptLogOf(
  execution: Enriched<RepositoryExecution>,
  taskType: TaskType,
  options: ScriptLogOptions,
  deps: EnrichmentDeps,
): Promise<Enriched<ScriptLog>> {
  if (taskType !== TASK_TYPES.reload) return notAvailable("only reload tasks write a script log");
  if (!execution.available)
    return notAvailable("the execution result, which finds the log, is not available");
  try {
    return await downloadScriptLog(execution.value, options, deps);
  } catch (error) {
    // Only a wait between attempts throws (at shutdown).
    return notAvailable(describeError(error));
  }
}
