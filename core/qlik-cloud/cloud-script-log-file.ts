/**
 * Where a tenant's failed run's script log is kept on disk (`qlikCloud.scriptLogFiles`, Butler's
 * `scriptLog.storeOnDisk.qsCloud`): `<directory>/<YYYY-MM-DD>/<tenant>-<appId>-<reloadId>.log`,
 * the UTC date of the run's start (else its end, else when Steward took it in). The tenant's name
 * leads so that the files of several tenants sharing one directory stay apart. Every part is
 * valid in a Windows file name (a tenant's name is lower-case letters, digits and hyphens, the
 * ids are Qlik's hex ids); the writer (core/task-events/script-log-files.ts) checks the whole name
 * against Windows' rules all the same, so an id a tenant sent oddly is reported, not written. Canceled runs are not
 * kept: someone stopped them, and Butler kept failed runs only. Runs of a tenant's first look-back
 * are kept too: they are recorded, and their log is what explains them.
 */
import type { Enriched, ScriptLog } from "../alerts/index.ts";
import type { ScriptLogEntry } from "../task-events/index.ts";
import type { CloudReloadRun } from "./cloud-reload-run.ts";

/** Before this, a time is no run's. */
const EARLIEST_RUN_MS = Date.UTC(2000, 0, 1);

/** The UTC date folder of the run. */
export function cloudRunDate(run: CloudReloadRun): string {
  for (const time of [run.startTime, run.endTime, run.finishedAt]) {
    const ms = Date.parse(time ?? "");
    if (ms >= EARLIEST_RUN_MS) return new Date(ms).toISOString().slice(0, 10);
  }
  return run.receivedAt.slice(0, 10);
}

/** `<tenant>-<appId>-<reloadId>.log`. */
export function cloudScriptLogFileName(run: CloudReloadRun): string {
  return `${run.tenant}-${run.appId}-${run.reloadId}.log`;
}

/** Whether the run's log is kept: failed runs only. */
export function keepsCloudScriptLog(run: CloudReloadRun): boolean {
  return run.kind === "reloadTaskFailure";
}

/** The writer's entry of the run and its downloaded log. */
export function cloudScriptLogEntry(run: CloudReloadRun, scriptLog: Enriched<ScriptLog>): ScriptLogEntry {
  return {
    date: cloudRunDate(run),
    name: cloudScriptLogFileName(run),
    scriptLog,
    fields: { tenant: run.tenant, appId: run.appId, reloadId: run.reloadId },
  };
}
