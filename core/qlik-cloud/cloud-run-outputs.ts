/**
 * The CloudRunHandler that takes a tenant's reload runs to the outputs a site's reload reaches:
 * its log line (log-cloud-run.ts), its time-series point (cloud-run-points.ts) and, for a failed
 * or canceled run that some alert destination takes, the alert, enriched through the tenant's
 * client (cloud-run-alert.ts) and handed to the alerts' dispatcher, which applies the rate limits
 * and the per-destination budget and counts each outcome as for the site's alerts. The lookups
 * are made only when a destination takes the kind. A run of a new tenant's first look-back
 * (`firstLookBack`, tenant-polling.ts) is recorded but not alerted. With `qlikCloud.scriptLogFiles`
 * on, a failed run's script log is also kept on disk (cloud-script-log-file.ts): the one the
 * alert downloaded, or, when no alert is made (no destination takes the kind, or a first
 * look-back's run), the log alone. The records of runs (`records`: the broker's messages, in the
 * local process) take the alert beside the alert channels, each through its own dispatcher, so
 * a run that no channel alerts is still published. A point the database did not take is logged
 * at WARN and not retried by handing the run on again, which would alert twice.
 */
import type { AlertDispatcher, CloudReloadAlert } from "../alerts/index.ts";
import type { CloudRunHandler, Logger, TenantClient, TimeseriesClient } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import type { ScriptLogFiles } from "../task-events/index.ts";
import { cloudAlertKind, cloudRunAlert, cloudScriptLog } from "./cloud-run-alert.ts";
import { type CloudPointsConfig, cloudRunPoint } from "./cloud-run-points.ts";
import { cloudScriptLogEntry, keepsCloudScriptLog } from "./cloud-script-log-file.ts";

export interface CloudTenantOutputs {
  readonly url: string;
  readonly client: TenantClient;
  /** `qlikCloud.tenants[].tags.static`. */
  readonly tags: readonly { readonly name: string; readonly value: string }[];
}

export interface CloudRunOutputsDeps {
  /** The run's log line. */
  readonly log: CloudRunHandler;
  /** Each configured tenant by name: its URL and client. */
  readonly tenants: ReadonlyMap<string, CloudTenantOutputs>;
  readonly alerts: Pick<AlertDispatcher, "dispatch" | "destinations">;
  /** The records of runs that take the alert besides the channels (the broker's messages); none by default. */
  readonly records?: Pick<AlertDispatcher<CloudReloadAlert>, "dispatch" | "destinations"> | undefined;
  /** There when the time-series database is on. */
  readonly points?: { readonly config: CloudPointsConfig; readonly series: TimeseriesClient } | undefined;
  readonly logger: Logger;
  /** There when `qlikCloud.scriptLogFiles` is on (local process only). */
  readonly scriptLogFiles?: Pick<ScriptLogFiles, "store"> | undefined;
}

export function createCloudRunOutputs(deps: CloudRunOutputsDeps): CloudRunHandler {
  const { logger } = deps;
  async function writePoint(run: Parameters<CloudRunHandler>[0]): Promise<void> {
    const tags = deps.tenants.get(run.tenant)?.tags ?? [];
    const point = deps.points === undefined ? undefined : cloudRunPoint(run, deps.points.config, tags);
    if (point === undefined || deps.points === undefined) return;
    try {
      await deps.points.series.write([point]);
    } catch (error) {
      logger.warn("Qlik Cloud reload point not written", {
        tenant: run.tenant,
        reloadId: run.reloadId,
        problem: describeError(error),
      });
    }
  }
  async function alert(run: Parameters<CloudRunHandler>[0]): Promise<void> {
    const kind = cloudAlertKind(run);
    const tenant = deps.tenants.get(run.tenant);
    if (kind === undefined || tenant === undefined) return;
    const files = keepsCloudScriptLog(run) ? deps.scriptLogFiles : undefined;
    const dispatchers: Pick<AlertDispatcher<CloudReloadAlert>, "dispatch" | "destinations">[] = [
      deps.alerts,
      ...(deps.records === undefined ? [] : [deps.records]),
    ];
    const takers = dispatchers.filter((dispatcher) =>
      dispatcher.destinations.some((destination) => destination.handles(kind)),
    );
    const alerted = run.firstLookBack !== true && takers.length > 0;
    if (!alerted) {
      if (files !== undefined)
        await files.store(cloudScriptLogEntry(run, await cloudScriptLog(run, tenant.client)));
      return;
    }
    const made = await cloudRunAlert(run, { name: run.tenant, url: tenant.url }, tenant.client);
    if (made === undefined) return;
    await Promise.all([
      ...takers.map((dispatcher) => dispatcher.dispatch(made)),
      files?.store(cloudScriptLogEntry(run, made.scriptLog)),
    ]);
  }
  return async function cloudRunOutputs(run) {
    await deps.log(run);
    await Promise.all([writePoint(run), alert(run)]);
  };
}
