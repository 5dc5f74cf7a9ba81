/**
 * The scheduler's task datagrams: which prefix is which kind, and the eleven fields after it.
 * Every prefix an appender file has sent for a task outcome is accepted — including
 * `/scheduler-task-success//` with two slashes, which the appender file Butler ships sends for
 * every successful reload and which Butler itself refused, so no success ever reached it.
 *
 * Checks, in order: the prefix (unknown → `unknown_marker`); `/engine-reload-failed/` names no
 * task and is `ignored`; fewer than eleven fields → `malformed` (a `;` inside the message is
 * kept in it, never shifts the fields); the task id must be a GUID, the app id and execution id
 * a GUID or empty (anything else → `malformed`: a lookup with it could only fail). Fields are
 * sanitised by the shared field layout (control characters removed, lengths capped); GUIDs come
 * out lower-case.
 */

import type { TaskEvent, TaskEventKind } from "../alerts/index.ts";
import {
  applyLayout,
  isUuidText,
  sanitiseField,
  splitFields,
  TASK_EVENT_LAYOUT,
  wireIndexOf,
} from "../udp/index.ts";

/** The engine's reload-failed datagram: recognised, but it names no task to look up or alert on. */
export const ENGINE_RELOAD_FAILED = "/engine-reload-failed/";

/** Prefix (lower case) → kind. */
export const TASK_PREFIXES: ReadonlyMap<string, TaskEventKind> = new Map<string, TaskEventKind>([
  ["/scheduler-task-failed/", "failed"],
  ["/scheduler-reload-failed/", "failed"],
  ["/scheduler-reloadtask-failed/", "failed"],
  ["/scheduler-task-aborted/", "aborted"],
  ["/scheduler-reload-aborted/", "aborted"],
  ["/scheduler-task-success/", "success"],
  ["/scheduler-task-success//", "success"],
  ["/scheduler-reloadtask-success/", "success"],
  ["/scheduler-distribute/", "distribute"],
]);

export type TaskDatagramResult =
  | { readonly ok: true; readonly event: TaskEvent }
  | {
      readonly ok: false;
      readonly outcome: "malformed";
      readonly kind: TaskEventKind;
      readonly reason: string;
    }
  | { readonly ok: false; readonly outcome: "unknown_marker" | "ignored"; readonly reason: string };

export interface DatagramOrigin {
  readonly receivedAtMs: number;
  readonly sender: string;
}

const TASK_ID = wireIndexOf(TASK_EVENT_LAYOUT, "taskId");
const APP_ID = wireIndexOf(TASK_EVENT_LAYOUT, "appId");
const EXECUTION_ID = wireIndexOf(TASK_EVENT_LAYOUT, "executionId");

/** `prefix` is field 0 as markerOf gives it: sanitised and lower-cased. */
export function parseTaskDatagram(text: string, prefix: string, origin: DatagramOrigin): TaskDatagramResult {
  const kind = TASK_PREFIXES.get(prefix);
  if (kind === undefined) {
    if (prefix === ENGINE_RELOAD_FAILED) {
      return { ok: false, outcome: "ignored", reason: "an engine reload-failed datagram names no task" };
    }
    return { ok: false, outcome: "unknown_marker", reason: "not a task event prefix" };
  }
  const parts = splitFields(text, TASK_EVENT_LAYOUT);
  if (parts === undefined) {
    return {
      ok: false,
      outcome: "malformed",
      kind,
      reason: `fewer than ${TASK_EVENT_LAYOUT.fields.length + 1} fields`,
    };
  }
  const badId = idProblem(parts, TASK_ID, "task id", false) ?? idProblem(parts, APP_ID, "app id", true);
  const problem = badId ?? idProblem(parts, EXECUTION_ID, "execution id", true);
  if (problem !== undefined) return { ok: false, outcome: "malformed", kind, reason: problem };
  const record = applyLayout(TASK_EVENT_LAYOUT, parts);
  const { source: _source, ...fields } = record;
  return { ok: true, event: { kind, prefix, ...fields, ...origin } };
}

/** Why field `index` is not a GUID (or empty, when allowed), or undefined when it is fine. */
function idProblem(
  parts: readonly string[],
  index: number,
  name: string,
  emptyAllowed: boolean,
): string | undefined {
  const value = sanitiseField(parts[index] ?? "", 100);
  if (value === "") return emptyAllowed ? undefined : `the ${name} is empty`;
  return isUuidText(value) ? undefined : `the ${name} is not a GUID`;
}
