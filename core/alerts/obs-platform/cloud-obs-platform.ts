/**
 * What a failed or canceled Qlik Cloud reload becomes on the observability platform: the event
 * and log entry of the site's reloads (task-obs-platform.ts), under the same `eventType` and
 * `logtype` (a failed cloud reload is a `qs_reloadTaskFailedEvent`, a canceled one a
 * `qs_reloadTaskAbortedEvent`), so the queries and dashboards written for the site's reloads find
 * the cloud's too, and `qs_tenant` tells them apart. The attributes keep Butler's names where a
 * cloud run has the same meaning (`qs_taskName` is `<app name> (Qlik Cloud, <tenant>)`, as a
 * cloud reload has no task; `qs_appName`, `qs_appId`, `qs_user` the user who reloaded,
 * `qs_executionId` the reload's id, `qs_logMessage` the error, `qs_hostName` the tenant's host)
 * and add the cloud's own (`qs_tenant`, `qs_tenantUrl`, `qs_spaceName`, `qs_reloadId`,
 * `qs_status`, `qs_errorCode`, ...). The log entry's message is the reload's details and the
 * script log's tail. Static attributes come first, so they never replace a `qs_*` attribute.
 */
import type { ObservabilityEvent, ObservabilityLogBatch } from "../../ports.ts";
import { CLOUD_RELOAD_BLOCKS, type CloudReloadAlert } from "../cloud-reload-alert.ts";
import {
  type CloudReloadTemplateFields,
  cloudReloadTemplateFields,
  tenantHostOf,
} from "../cloud-reload-fields.ts";
import { splitDuration } from "../task-fields.ts";
import { EVENT_TYPES, LOG_TYPES, type PayloadSettings, SEPARATOR } from "./task-obs-platform.ts";

export const NO_CLOUD_SCRIPT_LOG = "Script log not available for this Qlik Cloud reload.";

function cloudAttributes(
  alert: CloudReloadAlert,
  fields: CloudReloadTemplateFields,
  settings: PayloadSettings,
) {
  return {
    ...Object.fromEntries(settings.shared.map(({ name, value }) => [name, value])),
    ...Object.fromEntries(settings.own.static.map(({ name, value }) => [name, value])),
    version: settings.version,
    qs_tenant: fields.tenantName,
    qs_tenantUrl: fields.tenantUrl,
    qs_hostName: tenantHostOf(fields.tenantUrl),
    qs_user: fields.reloadedBy,
    qs_taskName: fields.taskName,
    qs_appName: fields.appName,
    qs_appId: fields.appId,
    qs_appUrl: fields.appUrl,
    qs_spaceId: fields.spaceId,
    qs_spaceName: fields.spaceName,
    qs_appOwnerName: fields.appOwnerName,
    qs_logTimeStamp: fields.finishedAt,
    qs_executionId: fields.reloadId,
    qs_reloadId: fields.reloadId,
    qs_status: fields.status,
    qs_trigger: fields.trigger,
    qs_errorCode: fields.errorCode,
    qs_errorMessage: fields.errorMessage,
    qs_logMessage: fields.logMessage,
    ...(alert.run.partial === undefined ? {} : { qs_partial: String(alert.run.partial) }),
  };
}

/** The event of a failed or canceled cloud reload; its time is when the reload finished. */
export function cloudObsPlatformEvent(
  alert: CloudReloadAlert,
  settings: PayloadSettings,
): ObservabilityEvent {
  const fields = cloudReloadTemplateFields(alert, { head: 0, tail: 0 });
  return {
    eventType: EVENT_TYPES[CLOUD_RELOAD_BLOCKS[alert.kind]],
    timestamp: Date.parse(alert.run.finishedAt),
    attributes: Object.entries(cloudAttributes(alert, fields, settings)).map(([name, value]) => ({
      name,
      value,
    })),
  };
}

/** The reload's details, one per line, as the message's first part. */
function details(fields: CloudReloadTemplateFields): string {
  return [
    `${fields.heading}: ${fields.appName} (${fields.appId}) in tenant ${fields.tenantName}`,
    `Reload id: ${fields.reloadId}`,
    `Status: ${fields.status}`,
    `Error code: ${fields.errorCode}`,
    `Error message: ${fields.errorMessage}`,
    `Space: ${fields.spaceName}`,
    `Reloaded by: ${fields.reloadedBy}`,
    `Trigger: ${fields.trigger}`,
    `Start time: ${fields.startTime}`,
    `End time: ${fields.endTime}`,
    `Duration (s): ${fields.durationSeconds}`,
    `App: ${fields.appUrl}`,
  ].join("\r\n");
}

/** The log entry of a failed or canceled cloud reload, with the last `tailLines` lines of its script log. */
export function cloudObsPlatformLog(
  alert: CloudReloadAlert,
  settings: PayloadSettings & { readonly tailLines: number },
): ObservabilityLogBatch {
  const fields = cloudReloadTemplateFields(alert, { head: 0, tail: settings.tailLines });
  const log = alert.scriptLog.available ? alert.scriptLog.value : undefined;
  const attributes = {
    ...cloudAttributes(alert, fields, settings),
    qs_executionStartTime: fields.startTime,
    qs_executionStopTime: fields.endTime,
    // Hours, minutes and seconds, as the site's entries give it; zeros when Qlik gave no duration.
    qs_executionDuration: splitDuration(Math.max(0, fields.durationSeconds) * 1000),
    // Spelt as Butler spelt it: existing queries filter on this name.
    qs_exeuctionStatusText: fields.status,
    qs_scriptLogSize: log?.characters ?? 0,
    qs_scriptLogTailCount: fields.scriptLogTailCount,
    logtype: LOG_TYPES[CLOUD_RELOAD_BLOCKS[alert.kind]],
  };
  const tail = log === undefined ? NO_CLOUD_SCRIPT_LOG : fields.scriptLogTail;
  return { attributes, messages: [`${details(fields)}${SEPARATOR}${tail}`] };
}
