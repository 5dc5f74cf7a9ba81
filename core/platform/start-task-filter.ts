/**
 * The task start filter (`startTaskFilter`): which tasks callers may start, the one rule the REST
 * API's task start and the broker's start topic both apply (start-reload-tasks.ts). Switched off,
 * every task may start. Switched on, a task may start when its id is listed under
 * `allowTask.taskId`, or it carries a tag listed under `allowTask.tag`, or it holds a custom
 * property value listed under `allowTask.customProperty`: the three lists add up, as Butler's
 * template describes them, and nothing listed means nothing starts.
 *
 * The rule is applied to each task as the repository answered it during the same start (its tags
 * and custom properties come with the lookup that found it), so a tag removed in the management
 * console takes effect at the next start: nothing is cached. A start by tag or custom property
 * starts, of the tasks found, those the list allows; Butler instead decided by the tag or value
 * asked for, and refused a task named by id unless its id was listed, however it was tagged.
 * Names and values are compared exactly, ids in either case.
 */
import type { PlatformTask } from "../ports.ts";
import { normalizeGuid } from "./guid.ts";

export interface StartTaskFilterSettings {
  readonly enable: boolean;
  readonly allowTask: {
    readonly taskId: readonly string[];
    readonly tag: readonly string[];
    readonly customProperty: readonly { readonly name: string; readonly value: string }[];
  };
}

export interface StartTaskFilter {
  /** False when every task may start (the filter is off). */
  readonly enabled: boolean;
  /** Why the task may not be started, or undefined when it may. */
  refusal(task: PlatformTask): string | undefined;
}

/** The reason every refused task gets; it names no tag or value of the task (they may be private). */
export const NOT_ALLOWED =
  "not allowed by startTaskFilter: neither its id nor any of its tags or custom property values is listed under startTaskFilter.allowTask";

export const ALLOW_EVERY_TASK: StartTaskFilter = { enabled: false, refusal: () => undefined };

export function createStartTaskFilter(settings: StartTaskFilterSettings): StartTaskFilter {
  if (!settings.enable) return ALLOW_EVERY_TASK;
  const ids = new Set(settings.allowTask.taskId.map(normalizeGuid));
  const tags = new Set(settings.allowTask.tag);
  // name \u0000 value: neither holds a NUL the repository would accept.
  const pairs = new Set(settings.allowTask.customProperty.map((cp) => `${cp.name}\u0000${cp.value}`));
  return {
    enabled: true,
    refusal(task) {
      if (ids.has(normalizeGuid(task.id))) return undefined;
      if (task.tags.some((tag) => tags.has(tag))) return undefined;
      if (task.customProperties.some((cp) => pairs.has(`${cp.name}\u0000${cp.value}`))) return undefined;
      return NOT_ALLOWED;
    },
  };
}

/** True when the filter is on and lists nothing: every start is refused (worth a WARN at start). */
export function allowsNothing(settings: StartTaskFilterSettings): boolean {
  const { taskId, tag, customProperty } = settings.allowTask;
  return settings.enable && taskId.length === 0 && tag.length === 0 && customProperty.length === 0;
}
