/**
 * A reload-task event as the scheduler's log appender sends it over UDP: one datagram of eleven
 * `;`-separated fields (prefix, host, task name, app name, user, task id, app id, log time, log
 * level, execution id, message), parsed by core/task-events/task-datagram.ts. It is what a
 * reload-task alert reports (task-alert.ts), so it is part of the alert's vocabulary.
 *
 * The kind comes from the prefix: every prefix an appender file has ever sent for a task
 * outcome maps to one of the four kinds. `/engine-reload-failed/` is not a kind: it names no
 * task or execution, so no lookup or alert can be made of it; it is recognised, counted as
 * `ignored` and goes nowhere (no shipped appender sends it).
 */

export const TASK_EVENT_KINDS = ["failed", "aborted", "success", "distribute"] as const;

/** What the scheduler reported: a run that failed, was aborted, succeeded, or a distribute run ended. */
export type TaskEventKind = (typeof TASK_EVENT_KINDS)[number];

export interface TaskEvent {
  readonly kind: TaskEventKind;
  /** Field 0 as received, lower-cased, e.g. `/scheduler-task-success//`. */
  readonly prefix: string;
  /** The platform node that logged the event. */
  readonly hostName: string;
  readonly taskName: string;
  /** Empty for tasks without an app (external program, user sync). */
  readonly appName: string;
  /** `DIRECTORY\userid` of the user the task ran as, as the appender sends it. */
  readonly user: string;
  /** Lower-case GUID. */
  readonly taskId: string;
  /** Lower-case GUID, or `''` for tasks without an app. */
  readonly appId: string;
  /** The appender's own time text, e.g. `2026-06-20 14:03:12,345` (the node's local time). */
  readonly logTimeStamp: string;
  readonly logLevel: string;
  /** Lower-case GUID of this run of the task, or `''` when the appender sent none. */
  readonly executionId: string;
  /** The scheduler's message; a `;` inside it is kept. */
  readonly logMessage: string;
  /** Epoch ms when Steward received the datagram. */
  readonly receivedAtMs: number;
  /** IP address of the sender (the node's appender). */
  readonly sender: string;
}
