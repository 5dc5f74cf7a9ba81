/**
 * What `steward simulate-platform --task-events HOST:PORT` sends: every few seconds one datagram
 * of the scheduler's task appenders, in turn a failed, an aborted and a successful run of a
 * catalogue reload task, with the prefixes and the eleven-field layout of the appender file
 * Steward ships. Each run gets a new execution id,
 * recorded in the simulated repository first, so that Steward's lookups find its execution
 * result and script log.
 */
import { randomUUID } from "node:crypto";
import { createSocket } from "node:dgram";
import type { Stoppable } from "../../core/ports.ts";
import { SIM_APPS, SIM_TASKS, type SimTask, TASK_SALES } from "./catalogue.ts";
import { recordExecution, type SimRunOutcome, type TaskEventRoutesState } from "./task-routes.ts";

export const TASK_EVENT_INTERVAL_MS = 5000;

export interface TaskEventSenderOptions {
  readonly host: string;
  readonly port: number;
  /** Where the runs are recorded: the first simulated server's repository. */
  readonly state: TaskEventRoutesState;
  readonly intervalMs?: number;
  readonly now?: () => number;
  /** Called with each send's error (an unreachable address); the sender carries on. */
  readonly onError?: (error: Error) => void;
}

/** The prefixes of the appender file Steward ships (docs/log-appenders/scheduler/LocalLogConfig.xml). */
export const APPENDER_PREFIXES: Readonly<Record<SimRunOutcome, string>> = {
  failed: "/scheduler-task-failed/",
  aborted: "/scheduler-task-aborted/",
  success: "/scheduler-task-success/",
};

const MESSAGES: Readonly<Record<SimRunOutcome, [level: string, message: string]>> = {
  failed: ["ERROR", "Task finished with state FinishedFail. Max retries reached"],
  aborted: ["INFO", "Execution State Change to Aborting"],
  success: ["INFO", "Execution State Change to FinishedSuccess"],
};

const ORDER: readonly SimRunOutcome[] = ["failed", "aborted", "success"];

/** The appender's time text: `yyyy-MM-dd HH:mm:ss,fff` (here in UTC). */
function log4netTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)},${iso.slice(20, 23)}`;
}

const SALES = SIM_TASKS.find((task) => task.id === TASK_SALES) as SimTask;

/** One datagram as the appender sends it for `outcome` of `executionId` of `task` (Reload Sales by default). */
export function taskDatagram(
  outcome: SimRunOutcome,
  executionId: string,
  atMs: number,
  task: SimTask = SALES,
): string {
  const [level, message] = MESSAGES[outcome];
  return [
    APPENDER_PREFIXES[outcome],
    "qs-node1",
    task.name,
    SIM_APPS.find((app) => app.id === task.appId)?.name ?? "",
    "INTERNAL\\sa_scheduler",
    task.id,
    task.appId,
    log4netTime(atMs),
    level,
    executionId,
    message,
  ].join(";");
}

/**
 * Records a new run of `task` (Reload Sales by default) in the simulated repository, ended at
 * `stoppedAtMs` (`atMs` by default), and answers the scheduler's datagram about it, logged at `atMs`.
 */
export function recordedRun(
  state: TaskEventRoutesState,
  outcome: SimRunOutcome,
  options: { task?: SimTask; atMs?: number; stoppedAtMs?: number } = {},
): string {
  const executionId = randomUUID();
  const atMs = options.atMs ?? Date.now();
  const task = options.task ?? SALES;
  recordExecution(state, { executionId, taskId: task.id, outcome, stoppedAtMs: options.stoppedAtMs ?? atMs });
  return taskDatagram(outcome, executionId, atMs, task);
}

export function startTaskEventSender(options: TaskEventSenderOptions): Stoppable {
  const now = options.now ?? Date.now;
  const socket = createSocket(options.host.includes(":") ? "udp6" : "udp4");
  socket.on("error", (error) => options.onError?.(error));
  let turn = 0;
  const sendNext = () => {
    const outcome = ORDER[turn++ % ORDER.length] as SimRunOutcome;
    const datagram = recordedRun(options.state, outcome, { atMs: now() });
    socket.send(datagram, options.port, options.host, (error) => {
      if (error) options.onError?.(error);
    });
  };
  const timer = setInterval(sendNext, options.intervalMs ?? TASK_EVENT_INTERVAL_MS);
  sendNext();
  return {
    async stop() {
      clearInterval(timer);
      socket.close();
    },
  };
}
