/**
 * What a failed or aborted reload becomes on the observability platform, under the names Butler
 * used so that the queries and dashboards operators already have keep working:
 * - an event: `eventType` qs_reloadTaskFailedEvent / qs_reloadTaskAbortedEvent with the `qs_*`
 *   attributes of the task event and its enrichment;
 * - a log entry: `logtype` qs_reloadTaskFailedLog / qs_reloadTaskAbortedLog, the same attributes
 *   and the execution's result, and a message of the execution details and the script log's tail.
 * Static attributes come first (shared, then the target's own), so they never replace a `qs_*`
 * attribute. Event attribute values are text: the event API takes no nested values, so custom
 * properties travel as JSON text.
 */
import type { NameValue, ObservabilityEvent, ObservabilityLogBatch } from "../../ports.ts";
import type { AlertLinks } from "../alert-view.ts";
import { foundValue, type TaskAlert } from "../task-alert.ts";
import { taskTemplateFields } from "../task-fields.ts";

export type ObsPlatformKind = "reloadTaskFailure" | "reloadTaskAborted";

export const isObsPlatformKind = (kind: string): kind is ObsPlatformKind =>
  kind === "reloadTaskFailure" || kind === "reloadTaskAborted";

export const EVENT_TYPES: Readonly<Record<ObsPlatformKind, string>> = {
  reloadTaskFailure: "qs_reloadTaskFailedEvent",
  reloadTaskAborted: "qs_reloadTaskAbortedEvent",
};

export const LOG_TYPES: Readonly<Record<ObsPlatformKind, string>> = {
  reloadTaskFailure: "qs_reloadTaskFailedLog",
  reloadTaskAborted: "qs_reloadTaskAbortedLog",
};

export const NO_SCRIPT_LOG = "Script log not available for this reload task.";

/** Separates the execution details from the script log's tail in a log entry's message. */
export const SEPARATOR = "\r\n-------------------------------\r\n\r\n";

/** The attributes a target (event or log) adds: its static ones and whether tags become attributes. */
export interface AttributeSettings {
  readonly static: readonly NameValue[];
  readonly dynamic: { readonly useAppTags: boolean; readonly useTaskTags: boolean };
}

export interface PayloadSettings {
  /** `sharedSettings.attribute.static` of the kind. */
  readonly shared: readonly NameValue[];
  readonly own: AttributeSettings;
  /** Steward's version, sent as `version`. */
  readonly version: string;
}

const asObject = (list: readonly NameValue[]) =>
  Object.fromEntries(list.map(({ name, value }) => [name, value]));

/** The task event's own attributes and what enrichment found of the task and app. */
function alertAttributes(alert: TaskAlert, own: AttributeSettings) {
  const { event } = alert;
  const task = foundValue(alert.task);
  const app = foundValue(alert.app);
  const attributes: Record<string, string> = {
    qs_hostName: event.hostName,
    // Queries written for Butler's events match users as DIRECTORY/userid.
    qs_user: event.user.replaceAll("\\", "/"),
    qs_taskName: task?.name || event.taskName,
    qs_taskId: event.taskId,
    qs_appName: app?.name || event.appName,
    qs_appId: app?.id || event.appId,
    qs_logTimeStamp: event.logTimeStamp,
    qs_logLevel: event.logLevel,
    qs_executionId: event.executionId,
    qs_logMessage: event.logMessage,
    qs_appCustomProperties: JSON.stringify(app?.customProperties ?? []),
    qs_taskCustomProperties: JSON.stringify(task?.customProperties ?? []),
  };
  if (own.dynamic.useTaskTags) for (const tag of task?.tags ?? []) attributes[`qs_taskTag_${tag}`] = "true";
  if (own.dynamic.useAppTags) for (const tag of app?.tags ?? []) attributes[`qs_appTag_${tag}`] = "true";
  return attributes;
}

/** The event of a failed or aborted reload; its time is when the datagram arrived. */
export function obsPlatformEvent(
  alert: TaskAlert,
  kind: ObsPlatformKind,
  settings: PayloadSettings,
): ObservabilityEvent {
  const attributes = {
    ...asObject(settings.shared),
    ...asObject(settings.own.static),
    version: settings.version,
    ...alertAttributes(alert, settings.own),
  };
  return {
    eventType: EVENT_TYPES[kind],
    timestamp: alert.event.receivedAtMs,
    attributes: Object.entries(attributes).map(([name, value]) => ({ name, value })),
  };
}

/** The log entry of a failed or aborted reload, with the last `tailLines` lines of its script log. */
export function obsPlatformLog(
  alert: TaskAlert,
  kind: ObsPlatformKind,
  links: AlertLinks,
  settings: PayloadSettings & { readonly tailLines: number },
): ObservabilityLogBatch {
  const fields = taskTemplateFields(alert, links, { head: 0, tail: settings.tailLines });
  const hasLog = alert.scriptLog.available;
  const attributes = {
    ...asObject(settings.shared),
    ...asObject(settings.own.static),
    version: settings.version,
    ...alertAttributes(alert, settings.own),
    qs_executingNodeName: fields.executingNodeName,
    qs_executionStartTime: fields.executionStartTime,
    qs_executionStopTime: fields.executionStopTime,
    qs_executionDuration: fields.executionDuration,
    qs_executionStatusNum: fields.executionStatusNum,
    // Spelt as Butler spelt it: existing queries filter on this name.
    qs_exeuctionStatusText: fields.executionStatusText,
    qs_scriptLogSize: fields.scriptLogSize,
    qs_scriptLogTailCount: fields.scriptLogTailCount,
    logtype: LOG_TYPES[kind],
  };
  const tail = hasLog ? fields.scriptLogTail : NO_SCRIPT_LOG;
  return { attributes, messages: [`${fields.executionDetailsConcatenated}${SEPARATOR}${tail}`] };
}
