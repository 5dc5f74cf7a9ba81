/**
 * The time-series point of a tenant's reload run, under the measurements the site's reloads are
 * written to (`reload_task_failed`, `reload_task_success`: task-points.ts), so that the reload
 * panels of the dashboards find both, told apart by the `tenant` tag (the configured tenant's
 * name), which the site's points do not have, and the tenant's static tags. Switched on under
 * `qlikCloud.timeseriesdb` (failures on by default, successes off: a tenant may reload often),
 * written when `timeseriesdbConfig.enable` is on. A canceled run has no point, as an aborted site
 * reload has none. The point's time is the run's end, so the same run written twice is one point.
 */
import type { Config } from "../config/index.ts";
import { type FieldValue, floatField, type Point, stringField } from "../shared/line-protocol.ts";
import { TASK_MEASUREMENTS } from "../task-events/task-points.ts";
import type { CloudReloadRun } from "./cloud-reload-run.ts";

export type CloudPointsConfig = Config["qlikCloud"]["timeseriesdb"];

type NameValue = { readonly name: string; readonly value: string };

/** True when the configuration writes a point of some cloud run. */
export function writesCloudRunPoints(config: Pick<Config, "qlikCloud" | "timeseriesdbConfig">): boolean {
  const points = config.qlikCloud.timeseriesdb;
  return (
    config.qlikCloud.enable &&
    config.timeseriesdbConfig.enable &&
    (points.reloadFailure.enable || points.reloadSuccess.enable)
  );
}

/** The point of `run`, or undefined when the configuration writes none for its kind. */
export function cloudRunPoint(
  run: CloudReloadRun,
  config: CloudPointsConfig,
  staticTags: readonly NameValue[] = [],
): Point | undefined {
  if (run.kind === "reloadTaskAborted") return undefined;
  const on = run.kind === "reloadTaskFailure" ? config.reloadFailure.enable : config.reloadSuccess.enable;
  if (!on) return undefined;
  const tags: Record<string, string> = {
    ...Object.fromEntries(staticTags.map(({ name, value }) => [name, value])),
    tenant: run.tenant,
    app_id: run.appId,
    ...(run.taskId === undefined ? {} : { task_id: run.taskId }),
    ...(run.userId === undefined ? {} : { user: run.userId }),
    // Misspelt as in the site's points: the dashboards filter on this name.
    task_exeuctionStatusText: run.status,
  };
  const fields: Record<string, FieldValue> = {
    execution_id: stringField(run.reloadId),
    log_timestamp: stringField(run.finishedAt),
    log_message: stringField(run.errorMessage ?? run.status),
    ...(run.errorCode === undefined ? {} : { error_code: stringField(run.errorCode) }),
    ...(run.trigger === undefined ? {} : { trigger: stringField(run.trigger) }),
    ...(run.durationSeconds === undefined
      ? {}
      : {
          task_executionDuration_sec: floatField(run.durationSeconds),
          task_executionDuration_min: floatField(run.durationSeconds / 60),
          task_executionDuration_h: floatField(run.durationSeconds / 3600),
        }),
  };
  const at = Date.parse(run.endTime ?? run.finishedAt);
  return {
    measurement: TASK_MEASUREMENTS[run.kind] as string,
    tags,
    fields,
    timestampMs: Number.isFinite(at) ? at : Date.parse(run.receivedAt),
  };
}
