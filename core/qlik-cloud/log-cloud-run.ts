/**
 * The CloudRunHandler of this version: one log line per run handed on, as the site's reload-task
 * events have, at INFO for a failed or aborted reload and at VERBOSE for a successful one (a tenant
 * reloads far more often than it fails). Points, alerts and enrichment come in place of, or
 * beside, this handler; the line says which tenant, app, reload and input it was, and Qlik's
 * status and error code, and a run of a new tenant's first look-back says it is not alerted.
 */
import type { CloudRunHandler, Logger } from "../ports.ts";
import type { CloudRunKind } from "./cloud-reload-run.ts";

const WORDS: Readonly<Record<CloudRunKind, string>> = {
  reloadTaskFailure: "failed",
  reloadTaskAborted: "aborted",
  reloadTaskSuccess: "succeeded",
};

export function createCloudRunLog(logger: Logger): CloudRunHandler {
  return async function logCloudRun(run) {
    const log = run.kind === "reloadTaskSuccess" ? logger.verbose : logger.info;
    log.call(logger, `Qlik Cloud reload ${WORDS[run.kind]}: app ${run.appId}`, {
      tenant: run.tenant,
      reloadId: run.reloadId,
      status: run.status,
      ...(run.errorCode === undefined ? {} : { errorCode: run.errorCode }),
      ...(run.trigger === undefined ? {} : { trigger: run.trigger }),
      finishedAt: run.finishedAt,
      source: run.source,
      input: run.input,
      ...(run.firstLookBack === true ? { firstLookBack: "recorded, not alerted" } : {}),
    });
  };
}
