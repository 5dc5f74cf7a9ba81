/**
 * Reload task start (PUT|POST /v4/reloadtask/{taskId}/start).
 *
 * Order: key-value items are stored first; then every id is checked (malformed → invalid,
 * unknown to the platform → invalid); tags and custom properties are looked up; only then are
 * tasks started, each at most once however many ways it was named. With allTaskIdsMustExist and
 * any invalid id, no id-named task starts and those ids are listed as denied (tag and custom
 * property tasks still start). A platform failure during the lookups fails the whole call before
 * anything starts; a start the platform refuses fails the call after the other starts were made,
 * naming what started and what did not (TaskStartFailedError).
 */
import type { Logger, PlatformClient, PlatformTask } from "../ports.ts";
import { PlatformError } from "./errors.ts";
import { isGuid, normalizeGuid } from "./guid.ts";
import type { TaskStartItem } from "./schemas.ts";

/** The key-value store as the task start call needs it; ttlMs 0 = no expiry. */
export interface TaskStartKeyValueStore {
  set(namespace: string, key: string, value: string, ttlMs: number): Promise<unknown>;
}

export interface StartReloadTasksDeps {
  readonly platform: Pick<
    PlatformClient,
    "findTaskById" | "findTasksByTag" | "findTasksByCustomProperty" | "startTask"
  >;
  /** Undefined when the key-value store is disabled: keyvaluestore items are then ignored. */
  readonly keyValues: TaskStartKeyValueStore | undefined;
  readonly logger: Logger;
}

export interface StartReloadTasksRequest {
  /** Path parameter; `-` names no task. */
  readonly taskId: string;
  readonly allTaskIdsMustExist: boolean;
  readonly items: readonly TaskStartItem[];
}

export interface StartedTask {
  readonly taskId: string;
  readonly taskName: string;
}

export interface TaskStartResult {
  readonly tasksId: { started: StartedTask[]; invalid: { taskId: string }[]; denied: { taskId: string }[] };
  readonly tasksTag: StartedTask[];
  /** Tags refused by a start filter. Steward has no start filter, so this stays empty. */
  readonly tasksTagDenied: { tag: string }[];
  readonly tasksCP: StartedTask[];
  /** Custom properties refused by a start filter; stays empty (no start filter). */
  readonly tasksCPDenied: { name: string; value: string }[];
}

/** Some starts were refused by the platform; the others were made. */
export class TaskStartFailedError extends PlatformError {
  override name = "TaskStartFailedError";
  constructor(
    readonly failures: readonly { taskId: string; reason: string }[],
    readonly startedTaskIds: readonly string[],
  ) {
    const failed = failures.map((f) => `${f.taskId} (${f.reason})`).join(", ");
    const started = startedTaskIds.length === 0 ? "none" : startedTaskIds.join(", ");
    super(`The platform did not start task(s) ${failed}; started: ${started}`);
  }
}

function addOnce<T>(list: T[], entry: T, same: (a: T, b: T) => boolean): void {
  if (!list.some((existing) => same(existing, entry))) list.push(entry);
}

const sameTask = (a: StartedTask, b: StartedTask) => a.taskId === b.taskId;
const toStarted = (task: PlatformTask): StartedTask => ({ taskId: task.id, taskName: task.name });

export async function startReloadTasks(
  deps: StartReloadTasksDeps,
  request: StartReloadTasksRequest,
): Promise<TaskStartResult> {
  const { platform, keyValues, logger } = deps;
  const result: TaskStartResult = {
    tasksId: { started: [], invalid: [], denied: [] },
    tasksTag: [],
    tasksTagDenied: [],
    tasksCP: [],
    tasksCPDenied: [],
  };

  for (const item of request.items) {
    if (item.type !== "keyvaluestore") continue;
    const { namespace, key, value, ttl } = item.payload;
    if (keyValues === undefined) {
      logger.warn("task start: key-value item ignored, the key-value store is disabled", { namespace, key });
      continue;
    }
    await keyValues.set(namespace, key, value, ttl);
  }

  const namedIds = [
    ...(request.taskId === "-" ? [] : [request.taskId]),
    ...request.items.flatMap((item) => (item.type === "starttaskid" ? [item.payload.taskId] : [])),
  ];
  const lookups = new Map<string, Promise<PlatformTask | undefined>>();
  const idCandidates: StartedTask[] = [];
  for (const named of namedIds) {
    if (!isGuid(named)) {
      addOnce(result.tasksId.invalid, { taskId: named }, (a, b) => a.taskId === b.taskId);
      continue;
    }
    const id = normalizeGuid(named);
    if (!lookups.has(id)) lookups.set(id, platform.findTaskById(id));
    const task = await lookups.get(id);
    if (task === undefined)
      addOnce(result.tasksId.invalid, { taskId: named }, (a, b) => a.taskId === b.taskId);
    else addOnce(idCandidates, toStarted(task), sameTask);
  }
  if (request.allTaskIdsMustExist && result.tasksId.invalid.length > 0) {
    result.tasksId.denied.push(...idCandidates.map((task) => ({ taskId: task.taskId })));
  } else {
    result.tasksId.started.push(...idCandidates);
  }

  for (const item of request.items) {
    if (item.type === "starttasktag") {
      for (const task of await platform.findTasksByTag(item.payload.tag))
        addOnce(result.tasksTag, toStarted(task), sameTask);
    } else if (item.type === "starttaskcustomproperty") {
      const { customPropertyName, customPropertyValue } = item.payload;
      for (const task of await platform.findTasksByCustomProperty(customPropertyName, customPropertyValue)) {
        addOnce(result.tasksCP, toStarted(task), sameTask);
      }
    }
  }

  const toStart = [
    ...new Set([...result.tasksId.started, ...result.tasksTag, ...result.tasksCP].map((t) => t.taskId)),
  ];
  const startedIds: string[] = [];
  const failures: { taskId: string; reason: string }[] = [];
  for (const taskId of toStart) {
    try {
      await platform.startTask(taskId);
      startedIds.push(taskId);
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      logger.error("task start: the platform did not start a task", { taskId, reason: error.message });
      failures.push({ taskId, reason: error.message });
    }
  }
  if (failures.length > 0) throw new TaskStartFailedError(failures, startedIds);
  logger.info("task start: tasks started", { count: startedIds.length });
  return result;
}
