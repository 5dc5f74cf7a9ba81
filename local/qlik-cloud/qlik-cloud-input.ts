/**
 * The Qlik Cloud inputs of the local runtime (`qlikCloud.enable`), started before the ingest API's
 * listener, which serves their webhooks, and stopped after it:
 * - the runs' inbox is a key-value store of its own, `./data/qlik-cloud/runs.json` and its
 *   write-ahead log (the local KeyValueStore: a write is acknowledged once synced, writes arriving
 *   together share one sync, expired records go at compaction), so a webhook's run is durable
 *   before its 2xx and remembered for de-duplication across restarts; the polling cursors are
 *   files under `./data/qlik-cloud/cursors/`; the directory is private to Steward's user;
 * - one client per tenant (core/adapters/qlik-cloud/), polling per tenant whose `poll` is on, and
 *   the webhook route for the tenants whose `webhook` is on;
 * - every run goes to one CloudRunHandler (unless another is given; built as the cloud functions
 *   build it, functions/qlik-cloud/tenant-wiring.ts: its log line, its point in the time-series
 *   database when `timeseriesdbConfig.enable`, and its alert to the alerts part's dispatcher);
 *   what an earlier start took and did not hand on is handed on first;
 * - with `taskEvents.sendToMQTT` and the broker on (cloudRunsPublish), the failed and canceled
 *   runs' broker messages on the site's reload topics, on the process's one broker connection,
 *   through a dispatcher of their own (counted under `mqtt` as the site's records are);
 * - with `qlikCloud.scriptLogFiles` on, the failed runs' script logs kept on disk
 *   (local/agent/script-log-files.ts: the site's writer and retention, in a directory of its
 *   own); only this process keeps them, the cloud functions keep no files;
 * - the licences of the tenants whose `licences.enable` is on, read on the licence monitor's
 *   schedule (tenant-licence-schedule.ts) to points, the `steward_license_access_*{tenant}`
 *   gauges and the tenant's status board entry (`licences`);
 * - metrics and, per tenant, a status board entry (core/qlik-cloud/cloud-input-monitor.ts); the
 *   cloud alerts' totals per destination beside the site's (`alertDestinations`, `email
 *   (qlikCloudReloadFailure)`, ...), as `steward_alerts_total{kind}` counts them.
 * Stopping: the pollers' calls are aborted, runs being handed on get HANDING_GRACE_MS, and what
 * is left stays pending in the inbox for the next start.
 */
import { join, resolve } from "node:path";
import { openCloudCursorFiles } from "../../core/adapters/local/cloud-cursor-files.ts";
import { openFileKeyValueStore } from "../../core/adapters/local/file-key-value-store.ts";
import { makePrivateDirectory } from "../../core/adapters/local/private-files.ts";
import {
  type AlertDispatcher,
  CLOUD_RELOAD_ALERT_KINDS,
  type CloudReloadAlert,
  createAlertDispatcher,
  totalsKey,
} from "../../core/alerts/index.ts";
import {
  type Config,
  cloudRunsPublish,
  maskUrl,
  type QlikCloudTenantConfig,
} from "../../core/config/index.ts";
import type { StatusBoard } from "../../core/monitoring/index.ts";
import type {
  BrokerClient,
  Clock,
  CloudRunHandler,
  Logger,
  MetricsRegistry,
  Stoppable,
} from "../../core/ports.ts";
import type { CloudTenantOutputs, TenantLicences } from "../../core/qlik-cloud/index.ts";
import {
  type CloudInputMonitor,
  type CloudRunIntake,
  createCloudInputMonitor,
  createCloudRunInbox,
  createCloudRunIntake,
  createWebhookReceiver,
  startTenantPolling,
} from "../../core/qlik-cloud/index.ts";
import { parseRecurrence } from "../../core/shared/recurrence.ts";
import { settlesWithin } from "../../core/shared/settles-within.ts";
import { createMqttTaskDestination } from "../../core/task-events/index.ts";
import {
  cloudRunOutputsOf,
  tenantClients,
  tenantLicencesOf,
  webhookTenants,
} from "../../functions/qlik-cloud/tenant-wiring.ts";
import { createWebhookHandler, type WebhookHandler } from "../../functions/qlik-cloud/webhook-handler.ts";
import { startScriptLogFiles } from "../agent/script-log-files.ts";
import { startTenantLicenceSchedule } from "./tenant-licence-schedule.ts";

/** Where the inputs keep their files, under the working directory. */
export const QLIK_CLOUD_DIRECTORY = "data/qlik-cloud";
/** How long runs being handed on may take at stop before they are left for the next start. */
export const HANDING_GRACE_MS = 2000;
/** Runs remembered per tenant: eight days of a tenant reloading twice a second. */
const MAX_RUNS_PER_TENANT = 1_500_000;

export interface QlikCloudInputDeps {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Relative paths resolve from here. */
  readonly cwd: string;
  readonly metrics: MetricsRegistry;
  readonly status?: StatusBoard | undefined;
  /** Where the failed and canceled runs' alerts go: the alerts part's dispatcher. */
  readonly alerts?: AlertDispatcher | undefined;
  /** The process's one broker connection, when there is one. */
  readonly broker?: BrokerClient | undefined;
  /** What every run is handed to (default: its log line, point and alert). */
  readonly handler?: CloudRunHandler;
}

export interface QlikCloudInput extends Stoppable {
  /** The webhook route for the ingest API's listener; undefined when no tenant's webhook is on. */
  readonly webhooks: WebhookHandler | undefined;
}

/**
 * The tenant's entry on the status board: its settings (no secret; the address masked as the
 * configuration view masks a URL), what its inputs report and, when they are read, its licences.
 */
function showTenant(
  status: StatusBoard | undefined,
  tenant: QlikCloudTenantConfig,
  monitor: CloudInputMonitor,
  licences: TenantLicences | undefined,
) {
  const read = licences?.names.includes(tenant.name) === true ? licences : undefined;
  status?.set("qlikCloud", tenant.name, () => ({
    url: maskUrl(tenant.url),
    webhook: tenant.webhook.enable ? "on" : "off",
    poll: tenant.poll.enable ? tenant.poll.interval : "off",
    credential: tenant.auth.apiKey !== "" ? "API key" : "OAuth client",
    ...monitor.status(tenant.name),
    ...(read === undefined ? {} : { licences: read.status(tenant.name) }),
  }));
}

export async function startQlikCloudInput(deps: QlikCloudInputDeps): Promise<QlikCloudInput> {
  const { config, clock } = deps;
  const logger = deps.logger.child("qlik-cloud");
  const directory = resolve(deps.cwd, QLIK_CLOUD_DIRECTORY);
  await makePrivateDirectory(directory);
  const store = await openFileKeyValueStore({
    file: join(directory, "runs.json"),
    clock,
    maxKeysPerNamespace: MAX_RUNS_PER_TENANT,
  });
  const started: Stoppable[] = [{ stop: () => store.close() }];
  const stopAll = async () => {
    for (const part of started.splice(0).reverse()) await part.stop();
  };
  try {
    const cursors = await openCloudCursorFiles(join(directory, "cursors"));
    const monitor = createCloudInputMonitor(deps.metrics, clock);
    const tenants = config.qlikCloud.tenants;
    const clients = tenantClients(tenants, clock, monitor);
    const licences = tenantLicencesOf({
      config,
      tenants: clients,
      clock,
      logger,
      cwd: deps.cwd,
      gauges: deps.metrics,
    });
    const scriptLogFiles = await startScriptLogFiles({
      settings: config.qlikCloud.scriptLogFiles,
      owner: "qlikCloud",
      cwd: deps.cwd,
      clock,
      logger,
      metrics: deps.metrics,
      status: deps.status,
    });
    if (scriptLogFiles !== undefined) started.push(scriptLogFiles);
    const records = brokerRecords(deps);
    const intake = createCloudRunIntake({
      inbox: createCloudRunInbox(store),
      handler:
        deps.handler ??
        cloudRunOutputsOf({
          config,
          tenants: clients,
          alerts: deps.alerts,
          records,
          logger,
          cwd: deps.cwd,
          scriptLogFiles: scriptLogFiles?.files,
        }),
      monitor,
      logger,
    });
    started.push({ stop: () => stopIntake(intake, clock, logger) });
    showCloudAlerts(deps.status, deps.alerts);
    showCloudAlerts(deps.status, records);
    for (const tenant of tenants) {
      const client = (clients.get(tenant.name) as CloudTenantOutputs).client;
      monitor.declareTenant(tenant.name, [
        ...(tenant.webhook.enable ? (["webhook"] as const) : []),
        ...(tenant.poll.enable ? (["poll"] as const) : []),
      ]);
      showTenant(deps.status, tenant, monitor, licences);
      const resumed = await intake.resume(tenant.name);
      if (resumed > 0)
        logger.info("Handing on Qlik Cloud runs taken before the last stop", {
          tenant: tenant.name,
          runs: resumed,
        });
      if (!tenant.poll.enable) continue;
      const polling = await startTenantPolling({
        tenant: tenant.name,
        client,
        recurrence: parseRecurrence(tenant.poll.interval),
        initialHours: tenant.poll.initialHours,
        cursors,
        intake,
        monitor,
        clock,
        logger,
      });
      started.push(polling);
    }
    if (licences !== undefined) started.push(startTenantLicenceSchedule({ licences, config, clock, logger }));
    const withWebhook = webhookTenants(tenants);
    const webhooks =
      withWebhook.length === 0
        ? undefined
        : createWebhookHandler(
            createWebhookReceiver({
              tenants: withWebhook,
              intake,
              monitor,
              logger,
              clock,
            }),
            logger,
          );
    logger.info("Qlik Cloud tenants", {
      tenants: tenants.map((tenant) => tenant.name).join(","),
      webhooks: withWebhook.map((tenant) => tenant.name).join(",") || "none",
      polled:
        tenants
          .filter((tenant) => tenant.poll.enable)
          .map((tenant) => tenant.name)
          .join(",") || "none",
    });
    let stopping: Promise<void> | undefined;
    return { webhooks, stop: () => (stopping ??= stopAll()) };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The dispatcher of the runs' broker messages, when they are published (cloudRunsPublish). */
function brokerRecords(deps: QlikCloudInputDeps): AlertDispatcher<CloudReloadAlert> | undefined {
  const { config, broker } = deps;
  if (!cloudRunsPublish(config) || broker === undefined) return undefined;
  return createAlertDispatcher<CloudReloadAlert>({
    destinations: [createMqttTaskDestination({ config: config.taskEvents.sendToMQTT, broker })],
    clock: deps.clock,
    logger: deps.logger.child("qlik-cloud"),
    metrics: deps.metrics,
  });
}

/** The cloud alerts' totals of every destination that takes them, under their totals keys. */
function showCloudAlerts(
  status: StatusBoard | undefined,
  alerts: Pick<AlertDispatcher<CloudReloadAlert>, "destinations" | "totals"> | undefined,
): void {
  if (status === undefined || alerts === undefined) return;
  for (const kind of CLOUD_RELOAD_ALERT_KINDS)
    for (const destination of alerts.destinations.filter((each) => each.handles(kind))) {
      const key = totalsKey(destination.name, kind);
      status.set("alertDestinations", key, () => alerts.totals(key));
    }
}

async function stopIntake(intake: CloudRunIntake, clock: Clock, logger: Logger): Promise<void> {
  if (!(await settlesWithin(intake.stop(), HANDING_GRACE_MS, clock))) {
    logger.warn("Qlik Cloud runs still being handed on at shutdown are left for the next start");
  }
}
