/**
 * The time-series point that records a task run (one per alert of the run), with the measurement, tag and field names Butler wrote,
 * so that the dashboards built on them (which filter on `qs_env` and on the misspelt tag
 * `task_exeuctionStatusText`) keep working: `reload_task_failed` and `reload_task_success` for
 * reload tasks, `{external_program,user_sync,distribute,preload}_task_{failed,success}` for the
 * others; an aborted reload has no point. Numbers are float fields and texts string fields, as
 * Butler wrote them, so that a database that holds its points takes ours.
 *
 * The point's time is when the run stopped (when it started, for a failure without a stop time;
 * when the event was received, when the repository told neither), not the time of the write:
 * the same execution reported twice then rewrites one point instead of counting twice.
 *
 * A successful reload is written only for the tasks the configuration names: every reload task
 * (`allReloadTasks`), or those whose custom property `byCustomProperty.customPropertyName` has
 * the value `enabledValue`.
 */

import {
  type ExecutionInfo,
  foundValue,
  headLines,
  localTimeFormatter,
  prefixedTimes,
  splitDuration,
  type TaskAlert,
  type TaskAlertKind,
  tailLines,
} from "../alerts/index.ts";
import type { Config } from "../config/index.ts";
import { type FieldValue, floatField, type Point, stringField } from "../shared/line-protocol.ts";

export type TaskPointsConfig = Config["taskEvents"]["timeseriesdb"];

/** Measurement of each kind that has a point. */
export const TASK_MEASUREMENTS: Readonly<Partial<Record<TaskAlertKind, string>>> = {
  reloadTaskFailure: "reload_task_failed",
  reloadTaskSuccess: "reload_task_success",
  externalProgramTaskFailure: "external_program_task_failed",
  externalProgramTaskSuccess: "external_program_task_success",
  userSyncTaskFailure: "user_sync_task_failed",
  userSyncTaskSuccess: "user_sync_task_success",
  distributeTaskFailure: "distribute_task_failed",
  distributeTaskSuccess: "distribute_task_success",
  preloadTaskFailure: "preload_task_failed",
  preloadTaskSuccess: "preload_task_success",
};

export const SCRIPT_LOG_NOT_AVAILABLE = "Script log not available";
const LINE_END = "\r\n";

type KindConfig = { readonly enable: boolean; readonly tag: { readonly static: readonly NameValue[] } };
type NameValue = { readonly name: string; readonly value: string };

function kindConfig(kind: TaskAlertKind, config: TaskPointsConfig): KindConfig | undefined {
  return kind === "reloadTaskAborted" ? undefined : config[kind];
}

/** True when the configuration switches on the points of `kind`. */
export function writesTaskPoints(kind: TaskAlertKind, config: TaskPointsConfig): boolean {
  return kindConfig(kind, config)?.enable === true;
}

/** Why a successful reload gets no point, or undefined when it gets one. */
export function successPointSkipped(alert: TaskAlert, config: TaskPointsConfig): string | undefined {
  const success = config.reloadTaskSuccess;
  if (alert.kind !== "reloadTaskSuccess" || success.allReloadTasks.enable) return undefined;
  const { byCustomProperty } = success;
  if (!byCustomProperty.enable) return "neither allReloadTasks nor byCustomProperty is on";
  const task = foundValue(alert.task);
  if (task === undefined) return "the task, whose custom property decides, is not available";
  const marked = task.customProperties.some(
    (cp) => cp.name === byCustomProperty.customPropertyName && cp.value === byCustomProperty.enabledValue,
  );
  return marked
    ? undefined
    : `the task's custom property ${byCustomProperty.customPropertyName} is not ${byCustomProperty.enabledValue}`;
}

/** The point of `alert`, or undefined for a kind that has none. `timeZone` gives the local times of the `_json` fields. */
export function taskPoint(alert: TaskAlert, config: TaskPointsConfig, timeZone?: string): Point | undefined {
  const measurement = TASK_MEASUREMENTS[alert.kind];
  const own = kindConfig(alert.kind, config);
  if (measurement === undefined || own === undefined) return undefined;
  const isReload = alert.kind.startsWith("reload");
  const isSuccess = alert.kind.endsWith("Success");
  const execution = foundValue(alert.execution);
  const withExecution = isReload || isSuccess;
  const tags: Record<string, string> = {
    ...staticTags(config.tag.static),
    ...eventTags(alert, isReload || alert.kind.startsWith("distribute") || alert.kind.startsWith("preload")),
    ...(withExecution ? executionTags(execution) : {}),
    ...staticTags(own.tag.static),
  };
  const fields: Record<string, FieldValue> = {
    log_timestamp: stringField(alert.event.logTimeStamp),
    execution_id: stringField(alert.event.executionId),
    log_message: stringField(alert.event.logMessage),
    ...(withExecution && execution !== undefined ? executionFields(execution, timeZone) : {}),
    ...(isReload ? scriptLogFields(alert, config, isSuccess) : {}),
  };
  return { measurement, tags, fields, timestampMs: pointTime(alert, execution) };
}

function staticTags(list: readonly NameValue[]): Record<string, string> {
  return Object.fromEntries(list.map(({ name, value }) => [name, value]));
}

function eventTags(alert: TaskAlert, withApp: boolean): Record<string, string> {
  const { event } = alert;
  const task = foundValue(alert.task);
  const app = foundValue(alert.app);
  return {
    host: event.hostName,
    // Back-slashes turned into slashes, as in Butler's points (a `\` is awkward in a tag filter).
    user: event.user.replaceAll("\\", "/"),
    task_id: event.taskId,
    task_name: task?.name || event.taskName,
    ...(withApp ? { app_id: app?.id || event.appId, app_name: app?.name || event.appName } : {}),
    log_level: event.logLevel,
  };
}

function executionTags(execution: ExecutionInfo | undefined): Record<string, string> {
  return {
    task_executingNodeName: execution?.executingNodeName || "unknown",
    task_executionStatusNum: String(execution?.status ?? -1),
    // Misspelt as in Butler's points: the dashboards filter on this name.
    task_exeuctionStatusText: execution?.statusText ?? "Execution result not available",
  };
}

function executionFields(execution: ExecutionInfo, timeZone: string | undefined): Record<string, FieldValue> {
  const times = localTimeFormatter(timeZone);
  const start = times(execution.startTime);
  const stop = times(execution.stopTime);
  const seconds = Math.max(0, execution.durationMs) / 1000;
  return {
    task_executionStartTime_json: stringField(JSON.stringify(prefixedTimes("startTime", start))),
    task_executionStopTime_json: stringField(JSON.stringify(prefixedTimes("stopTime", stop))),
    task_executionDuration_json: stringField(JSON.stringify(splitDuration(execution.durationMs))),
    task_executionDuration_sec: floatField(seconds),
    task_executionDuration_min: floatField(seconds / 60),
    task_executionDuration_h: floatField(seconds / 3600),
  };
}

/** The execution details, then the head (successes) and the tail of the log, as the dashboards' log panels show it. */
function scriptLogFields(
  alert: TaskAlert,
  config: TaskPointsConfig,
  isSuccess: boolean,
): Record<string, FieldValue> {
  const log = foundValue(alert.scriptLog);
  const execution = foundValue(alert.execution);
  const headCount = isSuccess ? config.reloadTaskSuccess.headScriptLogLines : 0;
  const tailCount = isSuccess
    ? config.reloadTaskSuccess.tailScriptLogLines
    : config.reloadTaskFailure.tailScriptLogLines;
  if (log === undefined) {
    return {
      task_scriptLogSize: floatField(0),
      ...(isSuccess ? { task_scriptLogHeadCount: floatField(0) } : {}),
      task_scriptLogTailCount: floatField(0),
      scriptLog: stringField(SCRIPT_LOG_NOT_AVAILABLE),
    };
  }
  const details = (execution?.details ?? []).map((d) => `${d.at}\t${d.message}\n`).join("");
  const head = headLines(log, headCount);
  const tail = tailLines(log, tailCount);
  const text = isSuccess
    ? `${details}${LINE_END}---------- SCRIPT LOG HEAD (${head.length} lines) ----------${LINE_END}${head.join(LINE_END)}${LINE_END}${LINE_END}---------- SCRIPT LOG TAIL (${tail.length} lines) ----------${LINE_END}${tail.join(LINE_END)}`
    : `${details}${LINE_END}-------------------------------${LINE_END}${LINE_END}${tail.join(LINE_END)}`;
  return {
    task_scriptLogSize: floatField(execution?.scriptLogSize || log.characters),
    ...(isSuccess ? { task_scriptLogHeadCount: floatField(head.length) } : {}),
    task_scriptLogTailCount: floatField(tail.length),
    scriptLog: stringField(text),
    reload_log: stringField(text),
  };
}

/** Stop time, else start time, else the receive time: one execution's point always has one time. */
function pointTime(alert: TaskAlert, execution: ExecutionInfo | undefined): number {
  for (const iso of [execution?.stopTime, execution?.startTime]) {
    if (iso === undefined || iso.startsWith("1753")) continue;
    const ms = Date.parse(iso);
    if (Number.isFinite(ms)) return ms;
  }
  return alert.event.receivedAtMs;
}
