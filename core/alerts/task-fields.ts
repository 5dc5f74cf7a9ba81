/**
 * The template fields of the reload-task alerts, beside the licence alerts' (licence-fields.ts):
 * what an alert template sees, under Butler's names so that the email, Teams and Slack templates
 * operators already have keep working. One function from a TaskAlert, the links of the
 * configuration and the head/tail line counts of the destination, used by every channel that
 * renders a template, so that all of them see the same fields.
 *
 * Where enrichment found nothing, a text field says "not available", a number is -1 (0 for
 * sizes), a list is empty, and `unavailable` names each missing part with the reason. Times
 * come as UTC ISO text and in five local forms (`...Local1` `yyyy-MM-dd HH:mm:ss`, then short,
 * medium and full forms; 4 and 5 are the same, as in Butler), and `localTimeZone` names the zone
 * of the local forms (the built-in messages print it beside each time: the log time of the
 * event, `logTimeStamp`, is the node's own clock and may be in another); the repository's "never" time
 * (year 1753) is shown as `-`. `appStreamName` is the stream's name (Butler passed the stream
 * object there), and `appUrl` is `qlikSenseUrls.appBaseUrl` + `/` + the app id with no doubled slash.
 */
import type { GenericUrlConfig } from "../config/index.ts";
import type { AlertLinks } from "./alert-view.ts";
import {
  type CustomPropertyValue,
  foundValue,
  headLines,
  type TaskAlert,
  tailLines,
  unavailableParts,
} from "./task-alert.ts";

export const NOT_AVAILABLE = "not available";

/** A time in UTC ISO text and the five local forms; `-` everywhere when there is none. */
export interface LocalTimes {
  readonly utc: string;
  readonly local1: string;
  readonly local2: string;
  readonly local3: string;
  readonly local4: string;
  readonly local5: string;
}

export interface ExecutionDetailFields {
  readonly timestampUTC: string;
  readonly timestampLocal1: string;
  readonly timestampLocal2: string;
  readonly timestampLocal3: string;
  readonly timestampLocal4: string;
  readonly timestampLocal5: string;
  readonly message: string;
  readonly detailsType: number;
}

export interface TaskTemplateFields {
  readonly alertKind: string;
  readonly hostName: string;
  readonly user: string;
  readonly taskName: string;
  readonly taskId: string;
  readonly executionId: string;
  readonly taskCustomProperties: readonly CustomPropertyValue[];
  readonly taskTags: readonly string[];
  readonly taskIsManuallyTriggered: boolean | string;
  readonly taskIsPartialReload: boolean | string;
  readonly taskMaxRetries: number;
  readonly taskModifiedByUsername: string;
  readonly taskModifiedDate: string;
  readonly taskSessionTimeout: number;
  readonly taskNextExecution: string;
  readonly appName: string;
  readonly appId: string;
  readonly appUrl: string;
  readonly appDescription: string;
  readonly appFileSize: number;
  readonly appLastSuccessfulReload: string;
  readonly appLastModifiedDate: string;
  readonly appLastModifiedByUserName: string;
  readonly appPublishTime: string;
  readonly appPublished: boolean | string;
  readonly appStreamName: string;
  readonly appCustomProperties: readonly CustomPropertyValue[];
  readonly appTags: readonly string[];
  readonly logTimeStamp: string;
  readonly logLevel: string;
  readonly logMessage: string;
  readonly executingNodeName: string;
  readonly executionDuration: { readonly hours: number; readonly minutes: number; readonly seconds: number };
  readonly executionStartTime: Readonly<Record<string, string>>;
  readonly executionStopTime: Readonly<Record<string, string>>;
  readonly executionStatusNum: number;
  readonly executionStatusText: string;
  readonly executionDetails: readonly ExecutionDetailFields[];
  readonly executionDetailsConcatenated: string;
  readonly scriptLogSize: number;
  readonly scriptLogSizeRows: number;
  readonly scriptLogSizeCharacters: number;
  readonly scriptLogHead: string;
  readonly scriptLogTail: string;
  readonly scriptLogHeadCount: number;
  readonly scriptLogTailCount: number;
  readonly qlikSenseQMC: string;
  readonly qlikSenseHub: string;
  readonly genericUrls: readonly GenericUrlConfig[];
  readonly appOwnerName: string;
  readonly appOwnerUserId: string;
  readonly appOwnerUserDirectory: string;
  readonly appOwnerEmail: string;
  /** Each part enrichment could not find, with the reason (`{scriptLog: "..."}`); empty when all were found. */
  readonly unavailable: Readonly<Record<string, string>>;
  /** The IANA time zone of the `...Local` forms, e.g. `Europe/Stockholm` or `UTC`. */
  readonly localTimeZone: string;
}

export interface ScriptLogLineCounts {
  readonly head: number;
  readonly tail: number;
}

export interface TaskTemplateFieldOptions {
  /** IANA time zone of the local forms; the process's own by default. */
  readonly timeZone?: string;
}

/** Script log lines are joined as the platform writes them. */
const LINE_END = "\r\n";

export function taskTemplateFields(
  alert: TaskAlert,
  links: AlertLinks,
  counts: ScriptLogLineCounts,
  options: TaskTemplateFieldOptions = {},
): TaskTemplateFields {
  const localTimes = localTimeFormatter(options.timeZone);
  return {
    alertKind: alert.kind,
    localTimeZone: options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    ...eventFields(alert),
    ...taskFields(alert),
    ...appFields(alert, links),
    ...executionFields(alert, localTimes),
    ...scriptLogFields(alert, counts),
    ...ownerFields(alert),
    qlikSenseQMC: links.qlikSenseUrls.qmc,
    qlikSenseHub: links.qlikSenseUrls.hub,
    genericUrls: links.genericUrls,
    unavailable: unavailableParts(alert),
  };
}

function eventFields(alert: TaskAlert) {
  const { event } = alert;
  return {
    hostName: event.hostName,
    user: event.user,
    taskId: event.taskId,
    executionId: event.executionId,
    logTimeStamp: event.logTimeStamp,
    logLevel: event.logLevel,
    logMessage: event.logMessage,
  };
}

function taskFields(alert: TaskAlert) {
  const task = foundValue(alert.task);
  return {
    taskName: task?.name || alert.event.taskName,
    taskCustomProperties: task?.customProperties ?? [],
    taskTags: task?.tags ?? [],
    taskIsManuallyTriggered: task?.isManuallyTriggered ?? NOT_AVAILABLE,
    taskIsPartialReload: task?.isPartialReload ?? NOT_AVAILABLE,
    taskMaxRetries: task?.maxRetries ?? -1,
    taskModifiedByUsername: task?.modifiedByUserName ?? NOT_AVAILABLE,
    taskModifiedDate: task === undefined ? NOT_AVAILABLE : neverAsDash(task.modifiedDate),
    taskSessionTimeout: task?.sessionTimeout ?? -1,
    taskNextExecution:
      task === undefined
        ? NOT_AVAILABLE
        : task.nextExecution === undefined || isNever(task.nextExecution)
          ? "Never"
          : task.nextExecution,
  };
}

function appFields(alert: TaskAlert, links: AlertLinks) {
  const app = foundValue(alert.app);
  const appId = app?.id || alert.event.appId;
  return {
    appName: app?.name || alert.event.appName,
    appId,
    appUrl: appUrl(links.qlikSenseUrls.appBaseUrl, appId),
    appDescription: app?.description ?? NOT_AVAILABLE,
    appFileSize: app?.fileSize ?? -1,
    appLastSuccessfulReload: app === undefined ? NOT_AVAILABLE : neverAsDash(app.lastReloadTime),
    appLastModifiedDate: app === undefined ? NOT_AVAILABLE : neverAsDash(app.modifiedDate),
    appLastModifiedByUserName: app?.modifiedByUserName ?? NOT_AVAILABLE,
    appPublishTime: app === undefined ? NOT_AVAILABLE : neverAsDash(app.publishTime),
    appPublished: app?.published ?? NOT_AVAILABLE,
    appStreamName: app === undefined ? NOT_AVAILABLE : app.streamName,
    appCustomProperties: app?.customProperties ?? [],
    appTags: app?.tags ?? [],
  };
}

/** `<base>/<app id>` with exactly one slash between; `''` without a base or an app. */
export function appUrl(base: string, appId: string): string {
  if (base === "" || appId === "") return "";
  return `${base.replace(/\/+$/, "")}/${appId}`;
}

function executionFields(alert: TaskAlert, localTimes: (iso: string | undefined) => LocalTimes) {
  const execution = foundValue(alert.execution);
  const start = localTimes(execution?.startTime);
  const stop = localTimes(execution?.stopTime);
  const details = execution?.details ?? [];
  return {
    executingNodeName: execution?.executingNodeName || NOT_AVAILABLE,
    executionDuration: splitDuration(execution?.durationMs ?? 0),
    executionStartTime: prefixedTimes("startTime", start),
    executionStopTime: prefixedTimes("stopTime", stop),
    executionStatusNum: execution?.status ?? -1,
    executionStatusText: execution?.statusText ?? NOT_AVAILABLE,
    executionDetails: details.map((detail) => {
      const at = localTimes(detail.at);
      return {
        timestampUTC: at.utc,
        timestampLocal1: at.local1,
        timestampLocal2: at.local2,
        timestampLocal3: at.local3,
        timestampLocal4: at.local4,
        timestampLocal5: at.local5,
        message: detail.message,
        detailsType: detail.detailsType,
      };
    }),
    executionDetailsConcatenated: details.map((detail) => `${detail.at}\t${detail.message}\n`).join(""),
    scriptLogSize: execution?.scriptLogSize ?? 0,
  };
}

/** A run's local times under Butler's names: `<prefix>UTC`, `<prefix>Local1` … `<prefix>Local5`. */
export function prefixedTimes(prefix: string, times: LocalTimes): Record<string, string> {
  return {
    [`${prefix}UTC`]: times.utc,
    [`${prefix}Local1`]: times.local1,
    [`${prefix}Local2`]: times.local2,
    [`${prefix}Local3`]: times.local3,
    [`${prefix}Local4`]: times.local4,
    [`${prefix}Local5`]: times.local5,
  };
}

/** Whole hours, minutes and seconds (seconds rounded down). */
export function splitDuration(durationMs: number): { hours: number; minutes: number; seconds: number } {
  const total = Math.max(0, Math.floor(durationMs / 1000));
  return { hours: Math.floor(total / 3600), minutes: Math.floor((total % 3600) / 60), seconds: total % 60 };
}

function scriptLogFields(alert: TaskAlert, counts: ScriptLogLineCounts) {
  const log = foundValue(alert.scriptLog);
  if (log === undefined) {
    return {
      scriptLogSizeRows: 0,
      scriptLogSizeCharacters: 0,
      scriptLogHead: counts.head > 0 ? NOT_AVAILABLE : "",
      scriptLogTail: counts.tail > 0 ? NOT_AVAILABLE : "",
      scriptLogHeadCount: 0,
      scriptLogTailCount: 0,
    };
  }
  const head = headLines(log, counts.head);
  const tail = tailLines(log, counts.tail);
  return {
    scriptLogSizeRows: log.lineCount,
    scriptLogSizeCharacters: log.characters,
    scriptLogHead: head.join(LINE_END),
    scriptLogTail: tail.join(LINE_END),
    scriptLogHeadCount: head.length,
    scriptLogTailCount: tail.length,
  };
}

function ownerFields(alert: TaskAlert) {
  const owner = foundValue(alert.appOwner);
  return {
    appOwnerName: owner?.name ?? NOT_AVAILABLE,
    appOwnerUserId: owner?.userId ?? NOT_AVAILABLE,
    appOwnerUserDirectory: owner?.userDirectory ?? NOT_AVAILABLE,
    // Only the first address is a template field; every address is a recipient.
    appOwnerEmail: owner?.emails[0] ?? "",
  };
}

/** The repository writes "never" as a time in 1753. */
function isNever(iso: string): boolean {
  return iso.startsWith("1753");
}

function neverAsDash(iso: string | undefined): string {
  return iso === undefined || iso === "" || isNever(iso) ? "-" : iso;
}

const DASHES: LocalTimes = { utc: "-", local1: "-", local2: "-", local3: "-", local4: "-", local5: "-" };

/** Formats an ISO time in UTC and in the local forms of `timeZone`. */
export function localTimeFormatter(timeZone: string | undefined): (iso: string | undefined) => LocalTimes {
  const zone = timeZone === undefined ? {} : { timeZone };
  const numeric = new Intl.DateTimeFormat("en-CA", {
    ...zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  const short = new Intl.DateTimeFormat("en-US", { ...zone, dateStyle: "short", timeStyle: "short" });
  const medium = new Intl.DateTimeFormat("en-US", { ...zone, dateStyle: "medium", timeStyle: "short" });
  const full = new Intl.DateTimeFormat("en-US", { ...zone, dateStyle: "long", timeStyle: "long" });
  return (iso) => {
    if (iso === undefined || iso === "" || isNever(iso)) return DASHES;
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return DASHES;
    const parts = Object.fromEntries(numeric.formatToParts(date).map((part) => [part.type, part.value]));
    const local1 = `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
    const local4 = full.format(date);
    return {
      utc: date.toISOString(),
      local1,
      local2: short.format(date),
      local3: medium.format(date),
      local4,
      local5: local4,
    };
  };
}
