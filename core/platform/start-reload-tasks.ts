/**
 * Reload task start: PUT|POST /v4/reloadtask/{taskId}/start, and a task id published to the
 * broker's start topic (broker-task-starts.ts), through the same steps, filter and counts.
 *
 * Order: key-value items are stored first; then every id is checked (malformed → invalid,
 * unknown to the platform → invalid); tags and custom properties are looked up; each task found
 * is checked against the start filter (start-task-filter.ts); only then are the allowed tasks
 * started, each at most once however many ways it was named. With allTaskIdsMustExist and any
 * invalid id, no id-named task starts and those ids are listed as denied (tag and custom property
 * tasks still start). A platform failure during the lookups fails the whole call before anything
 * starts. When the filter refuses some tasks, the allowed ones still start, as in Butler, and the
 * call fails afterwards naming both (TaskStartRefusedError, 403 on REST); a start the platform
 * refuses fails the call after the other starts were made (TaskStartFailedError, 502). Every task
 * named or selected is counted once under its outcome (task-start-counts.ts).
 */
import type { Logger, PlatformClient, PlatformTask } from "../ports.ts";
import { PlatformError } from "./errors.ts";
import { isGuid, normalizeGuid } from "./guid.ts";
import type { TaskStartItem } from "./schemas.ts";
import { ALLOW_EVERY_TASK, type StartTaskFilter } from "./start-task-filter.ts";
import type { TaskStartCounts, TaskStartOutcome, TaskStartSource } from "./task-start-counts.ts";

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
  /** Which tasks may start; absent: every task. */
  readonly filter?: StartTaskFilter | undefined;
  /** Where each task's outcome is counted, under `source`; absent: not counted. */
  readonly counts?: TaskStartCounts | undefined;
  /** Where the start came from (default `rest`). */
  readonly source?: TaskStartSource;
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
  /** Butler's list of tags its filter refused. A refused task fails the call instead (403), so this stays empty. */
  readonly tasksTagDenied: { tag: string }[];
  readonly tasksCP: StartedTask[];
  /** Butler's list of custom properties its filter refused; stays empty, as tasksTagDenied. */
  readonly tasksCPDenied: { name: string; value: string }[];
}

/** A task the start filter did not allow, and why. */
export interface RefusedTask extends StartedTask {
  readonly reason: string;
}

const listed = (ids: readonly string[]) => (ids.length === 0 ? "none" : ids.join(", "));

/** Some starts were refused by the platform; the others were made. */
export class TaskStartFailedError extends PlatformError {
  override name = "TaskStartFailedError";
  constructor(
    readonly failures: readonly { taskId: string; reason: string }[],
    readonly startedTaskIds: readonly string[],
  ) {
    const failed = failures.map((f) => `${f.taskId} (${f.reason})`).join(", ");
    super(`The platform did not start task(s) ${failed}; started: ${listed(startedTaskIds)}`);
  }
}

/**
 * The start filter refused some tasks; the allowed ones were started (and those the platform did
 * not start are named too). The message names every refused task with its reason.
 */
export class TaskStartRefusedError extends Error {
  override name = "TaskStartRefusedError";
  constructor(
    readonly refused: readonly RefusedTask[],
    readonly startedTaskIds: readonly string[],
    readonly failures: readonly { taskId: string; reason: string }[] = [],
  ) {
    const reasons = new Map<string, string[]>();
    for (const task of refused) {
      reasons.set(task.reason, [...(reasons.get(task.reason) ?? []), `"${task.taskName}" (${task.taskId})`]);
    }
    const named = [...reasons].map(([reason, tasks]) => `${tasks.join(", ")}: ${reason}`).join("; ");
    const failed =
      failures.length === 0
        ? ""
        : `; the platform did not start ${failures.map((f) => `${f.taskId} (${f.reason})`).join(", ")}`;
    super(`Task start refused for ${named}; started: ${listed(startedTaskIds)}${failed}`);
  }
}

function addOnce<T>(list: T[], entry: T, same: (a: T, b: T) => boolean): void {
  if (!list.some((existing) => same(existing, entry))) list.push(entry);
}

const sameTask = (a: StartedTask, b: StartedTask) => a.taskId === b.taskId;
const sameId = (a: { taskId: string }, b: { taskId: string }) => a.taskId === b.taskId;
const toStarted = (task: PlatformTask): StartedTask => ({ taskId: task.id, taskName: task.name });

/** What the lookups found: the ids that name no task, and each task found, by how it was named. */
interface Found {
  /** In the order named; `malformed`: not a GUID, else unknown to the platform. */
  readonly invalid: { taskId: string; malformed: boolean }[];
  readonly byId: PlatformTask[];
  readonly byTag: PlatformTask[];
  readonly byCustomProperty: PlatformTask[];
}

async function storeKeyValues(deps: StartReloadTasksDeps, items: readonly TaskStartItem[]): Promise<void> {
  for (const item of items) {
    if (item.type !== "keyvaluestore") continue;
    const { namespace, key, value, ttl } = item.payload;
    if (deps.keyValues === undefined) {
      deps.logger.warn("task start: key-value item ignored, the key-value store is disabled", {
        namespace,
        key,
      });
      continue;
    }
    await deps.keyValues.set(namespace, key, value, ttl);
  }
}

function namedIds(request: StartReloadTasksRequest): string[] {
  return [
    ...(request.taskId === "-" ? [] : [request.taskId]),
    ...request.items.flatMap((item) => (item.type === "starttaskid" ? [item.payload.taskId] : [])),
  ];
}

/** Looks every id, tag and custom property up; a platform failure rejects the whole lookup. */
async function findTasks(deps: StartReloadTasksDeps, request: StartReloadTasksRequest): Promise<Found> {
  const { platform } = deps;
  const found: Found = { invalid: [], byId: [], byTag: [], byCustomProperty: [] };
  const lookups = new Map<string, Promise<PlatformTask | undefined>>();
  for (const named of namedIds(request)) {
    if (!isGuid(named)) {
      addOnce(found.invalid, { taskId: named, malformed: true }, sameId);
      continue;
    }
    const id = normalizeGuid(named);
    if (!lookups.has(id)) lookups.set(id, platform.findTaskById(id));
    const task = await lookups.get(id);
    if (task === undefined) addOnce(found.invalid, { taskId: named, malformed: false }, sameId);
    else addOnce(found.byId, task, (a, b) => a.id === b.id);
  }
  for (const item of request.items) {
    if (item.type === "starttasktag") {
      found.byTag.push(...(await platform.findTasksByTag(item.payload.tag)));
    } else if (item.type === "starttaskcustomproperty") {
      const { customPropertyName, customPropertyValue } = item.payload;
      found.byCustomProperty.push(
        ...(await platform.findTasksByCustomProperty(customPropertyName, customPropertyValue)),
      );
    }
  }
  return found;
}

/** The answer and the refused tasks: every task found goes through the filter once. */
function decide(
  found: Found,
  filter: StartTaskFilter,
  allTaskIdsMustExist: boolean,
): { result: TaskStartResult; refused: RefusedTask[] } {
  const refused: RefusedTask[] = [];
  const allowed = (task: PlatformTask): boolean => {
    const reason = filter.refusal(task);
    if (reason !== undefined) addOnce(refused, { ...toStarted(task), reason }, sameTask);
    return reason === undefined;
  };
  const result: TaskStartResult = {
    tasksId: { started: [], invalid: [], denied: [] },
    tasksTag: [],
    tasksTagDenied: [],
    tasksCP: [],
    tasksCPDenied: [],
  };
  result.tasksId.invalid.push(...found.invalid.map(({ taskId }) => ({ taskId })));
  const idCandidates = found.byId.filter(allowed).map(toStarted);
  if (allTaskIdsMustExist && result.tasksId.invalid.length > 0) {
    result.tasksId.denied.push(...idCandidates.map((task) => ({ taskId: task.taskId })));
  } else {
    result.tasksId.started.push(...idCandidates);
  }
  for (const task of found.byTag.filter(allowed)) addOnce(result.tasksTag, toStarted(task), sameTask);
  for (const task of found.byCustomProperty.filter(allowed))
    addOnce(result.tasksCP, toStarted(task), sameTask);
  return { result, refused };
}

async function startEach(
  deps: StartReloadTasksDeps,
  taskIds: readonly string[],
): Promise<{ startedIds: string[]; failures: { taskId: string; reason: string }[] }> {
  const startedIds: string[] = [];
  const failures: { taskId: string; reason: string }[] = [];
  for (const taskId of taskIds) {
    try {
      await deps.platform.startTask(taskId);
      startedIds.push(taskId);
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      deps.logger.error("task start: the platform did not start a task", { taskId, reason: error.message });
      failures.push({ taskId, reason: error.message });
    }
  }
  return { startedIds, failures };
}

export async function startReloadTasks(
  deps: StartReloadTasksDeps,
  request: StartReloadTasksRequest,
): Promise<TaskStartResult> {
  const source = deps.source ?? "rest";
  const count = (outcome: TaskStartOutcome, n: number) => deps.counts?.record(source, outcome, n);
  await storeKeyValues(deps, request.items);
  let found: Found;
  try {
    found = await findTasks(deps, request);
  } catch (error) {
    const selectors = request.items.filter(
      (i) => i.type === "starttasktag" || i.type === "starttaskcustomproperty",
    );
    if (error instanceof PlatformError) count("failed", namedIds(request).length + selectors.length);
    throw error;
  }
  const { result, refused } = decide(found, deps.filter ?? ALLOW_EVERY_TASK, request.allTaskIdsMustExist);
  const toStart = [
    ...new Set([...result.tasksId.started, ...result.tasksTag, ...result.tasksCP].map((t) => t.taskId)),
  ];
  const { startedIds, failures } = await startEach(deps, toStart);
  const malformed = found.invalid.filter((entry) => entry.malformed).length;
  count("malformed", malformed);
  count("unknown", found.invalid.length - malformed);
  count("withheld", result.tasksId.denied.length);
  count("refused", refused.length);
  count("started", startedIds.length);
  count("failed", failures.length);
  if (refused.length > 0) throw new TaskStartRefusedError(refused, startedIds, failures);
  if (failures.length > 0) throw new TaskStartFailedError(failures, startedIds);
  deps.logger.info("task start: tasks started", {
    source,
    count: startedIds.length,
    ...(startedIds.length > 0 ? { tasks: startedIds.join(",") } : {}),
  });
  return result;
}
