/**
 * The template fields of the Qlik Cloud reload alerts: what the built-in messages and an
 * operator's templates see, one function for every channel. The cloud's own fields are named
 * for the cloud (`tenantName`, `tenantUrl`, `spaceName`, `reloadId`, `reloadedBy`, ...); where a
 * site's task alert has a field of the same meaning, it is there too under Butler's name
 * (`appName`, `appId`, `appUrl`, `appOwnerName`, `appOwnerEmail`, `user`, `executionId`,
 * `logMessage`, `scriptLogHead`, `scriptLogTail`), so a template written for the site's reloads
 * renders a cloud reload sensibly; `taskName`, which the default subjects and chat titles name,
 * is the app's name and the tenant's (`Sales (Qlik Cloud, eu)`). What a lookup could not tell reads "not available", and
 * `unavailable` names each missing part with the reason.
 */
import type { CloudReloadAlert, CloudReloadAlertKind } from "./cloud-reload-alert.ts";
import { foundValue, headLines, tailLines } from "./task-alert.ts";
import { NOT_AVAILABLE } from "./task-fields.ts";

export interface CloudReloadTemplateFields {
  readonly alertKind: CloudReloadAlertKind;
  /** `Qlik Cloud reload failed` or `Qlik Cloud reload canceled`. */
  readonly heading: string;
  readonly tenantName: string;
  readonly tenantUrl: string;
  readonly appId: string;
  readonly appName: string;
  /** The app in the tenant: `<tenant URL>/sense/app/<app id>`. */
  readonly appUrl: string;
  /** `<app name> (Qlik Cloud, <tenant name>)`: what the site's default subjects and titles name. */
  readonly taskName: string;
  readonly spaceId: string;
  readonly spaceName: string;
  readonly appOwnerName: string;
  readonly appOwnerEmail: string;
  /** The name of the user who started the reload. */
  readonly reloadedBy: string;
  /** The same, under the task alerts' name. */
  readonly user: string;
  readonly reloadId: string;
  /** The same, under the task alerts' name. */
  readonly executionId: string;
  readonly status: string;
  readonly trigger: string;
  readonly errorCode: string;
  readonly errorMessage: string;
  /** The error message, else the status: the task alerts' one-line message. */
  readonly logMessage: string;
  readonly startTime: string;
  readonly endTime: string;
  readonly finishedAt: string;
  /** Seconds, -1 when unknown. */
  readonly durationSeconds: number;
  readonly partial: boolean;
  readonly scriptLogHead: string;
  readonly scriptLogTail: string;
  readonly scriptLogHeadCount: number;
  readonly scriptLogTailCount: number;
  readonly unavailable: Readonly<Record<string, string>>;
}

const HEADINGS: Readonly<Record<CloudReloadAlertKind, string>> = {
  qlikCloudReloadFailure: "Qlik Cloud reload failed",
  qlikCloudReloadAborted: "Qlik Cloud reload canceled",
};

/** The tenant's host (`eu-sales.eu.qlikcloud.com`): what the site's messages name as `hostName`. */
export function tenantHostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** `{part: reason}` of every part a lookup could not tell. */
export function cloudUnavailableParts(alert: CloudReloadAlert): Record<string, string> {
  const parts = {
    app: alert.app,
    space: alert.space,
    appOwner: alert.owner,
    reloadedBy: alert.reloadedBy,
    scriptLog: alert.scriptLog,
  };
  const out: Record<string, string> = {};
  for (const [name, part] of Object.entries(parts)) if (!part.available) out[name] = part.reason;
  return out;
}

export function cloudReloadTemplateFields(
  alert: CloudReloadAlert,
  counts: { readonly head: number; readonly tail: number },
): CloudReloadTemplateFields {
  const { run, tenant } = alert;
  const text = (value: string | undefined) => (value === undefined || value === "" ? NOT_AVAILABLE : value);
  const owner = foundValue(alert.owner);
  const reloadedBy = text(foundValue(alert.reloadedBy)?.name);
  const appName = text(foundValue(alert.app)?.name);
  const log = foundValue(alert.scriptLog);
  const head = log === undefined ? [] : headLines(log, counts.head);
  const tail = log === undefined ? [] : tailLines(log, counts.tail);
  return {
    alertKind: alert.kind,
    heading: HEADINGS[alert.kind],
    tenantName: tenant.name,
    tenantUrl: tenant.url,
    appId: run.appId,
    appName,
    appUrl: `${tenant.url}/sense/app/${encodeURIComponent(run.appId)}`,
    taskName: `${appName === NOT_AVAILABLE ? run.appId : appName} (Qlik Cloud, ${tenant.name})`,
    spaceId: foundValue(alert.space)?.id ?? "",
    spaceName: text(foundValue(alert.space)?.name),
    appOwnerName: text(owner?.name),
    appOwnerEmail: text(owner?.email),
    reloadedBy,
    user: reloadedBy,
    reloadId: run.reloadId,
    executionId: run.reloadId,
    status: run.status,
    trigger: text(run.trigger),
    errorCode: text(run.errorCode),
    errorMessage: text(run.errorMessage),
    logMessage: run.errorMessage ?? run.status,
    startTime: text(run.startTime),
    endTime: text(run.endTime ?? run.finishedAt),
    finishedAt: run.finishedAt,
    durationSeconds: run.durationSeconds ?? -1,
    partial: run.partial ?? false,
    scriptLogHead: head.join("\n"),
    scriptLogTail: tail.join("\n"),
    scriptLogHeadCount: head.length,
    scriptLogTailCount: tail.length,
    unavailable: cloudUnavailableParts(alert),
  };
}
