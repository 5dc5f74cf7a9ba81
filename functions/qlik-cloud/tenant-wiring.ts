/**
 * What both runtimes build alike from `qlikCloud.tenants[]`, so that a tenant's runs reach the
 * same outputs whether the local process or a cloud function takes them: one client per tenant
 * (its credential, its calls reported to the inputs' monitor), the webhook secrets of the tenants
 * whose webhook is on, and the CloudRunHandler of every run (core/qlik-cloud/cloud-run-outputs.ts:
 * its log line, its point in the time-series database when `timeseriesdbConfig.enable`, through a
 * client of its own, its alert to the alerts' dispatcher and, in the local process, to the
 * broker's records of runs), and the reading of the licences of
 * the tenants whose `licences.enable` is on (core/qlik-cloud/tenant-licences.ts: its points
 * written when `timeseriesdbConfig.enable`, through a client of its own). Used by
 * local/qlik-cloud/qlik-cloud-input.ts and functions/qlik-cloud/cloud-qlik-input.ts.
 */
import { createTimeseriesClient } from "../../core/adapters/influx/create-timeseries-client.ts";
import {
  createTenantHttpClient,
  type TenantCredential,
} from "../../core/adapters/qlik-cloud/tenant-http-client.ts";
import type { AlertDispatcher } from "../../core/alerts/index.ts";
import type { Config, QlikCloudTenantConfig } from "../../core/config/index.ts";
import { ensuringDatabase } from "../../core/destinations/index.ts";
import { licenceGaugesOf } from "../../core/licences/index.ts";
import type { Clock, CloudRunHandler, Logger, MetricsRegistry } from "../../core/ports.ts";
import type { TenantCallEvents, TenantLicences, WebhookTenant } from "../../core/qlik-cloud/index.ts";
import {
  type CloudRunOutputsDeps,
  type CloudTenantOutputs,
  createCloudRunLog,
  createCloudRunOutputs,
  createTenantLicences,
  writesCloudRunPoints,
} from "../../core/qlik-cloud/index.ts";

export function credentialOf(tenant: QlikCloudTenantConfig): TenantCredential {
  return tenant.auth.apiKey !== "" ? { apiKey: tenant.auth.apiKey } : { oauth: tenant.auth.oauth };
}

/** Each tenant's client, URL and static tags, by name. */
export function tenantClients(
  tenants: readonly QlikCloudTenantConfig[],
  clock: Clock,
  events: TenantCallEvents,
): Map<string, CloudTenantOutputs> {
  const clients = new Map<string, CloudTenantOutputs>();
  for (const tenant of tenants) {
    const client = createTenantHttpClient({
      tenant: tenant.name,
      url: tenant.url,
      credential: credentialOf(tenant),
      clock,
      events,
    });
    clients.set(tenant.name, { url: tenant.url, client, tags: tenant.tags.static });
  }
  return clients;
}

/** The names and secrets of the tenants whose webhook is on. */
export function webhookTenants(tenants: readonly QlikCloudTenantConfig[]): WebhookTenant[] {
  return tenants
    .filter((tenant) => tenant.webhook.enable)
    .map((tenant) => ({ name: tenant.name, secret: tenant.webhook.secret }));
}

export interface RunOutputsDeps {
  readonly config: Config;
  readonly tenants: ReadonlyMap<string, CloudTenantOutputs>;
  /** The alerts' dispatcher; none: runs are logged and written, not alerted. */
  readonly alerts?: Pick<AlertDispatcher, "dispatch" | "destinations"> | undefined;
  /**
   * The broker's records of the runs (`taskEvents.sendToMQTT`): given by the local process only;
   * the cloud functions have no broker connection.
   */
  readonly records?: CloudRunOutputsDeps["records"];
  readonly logger: Logger;
  /** Relative paths of the time-series settings (certificates) resolve from here. */
  readonly cwd: string;
  /**
   * Where failed runs' script logs are kept (`qlikCloud.scriptLogFiles`): given by the local
   * process only; the cloud functions keep no files (a function's disk is gone with it).
   */
  readonly scriptLogFiles?: CloudRunOutputsDeps["scriptLogFiles"];
}

/** Every run's log line, point and alert (core/qlik-cloud/cloud-run-outputs.ts). */
export function cloudRunOutputsOf(deps: RunOutputsDeps): CloudRunHandler {
  const { config, logger } = deps;
  const series = writesCloudRunPoints(config)
    ? ensuringDatabase(createTimeseriesClient(config.timeseriesdbConfig, { cwd: deps.cwd }), {
        logger: logger.child("timeseriesdb"),
      })
    : undefined;
  return createCloudRunOutputs({
    log: createCloudRunLog(logger),
    tenants: deps.tenants,
    alerts: deps.alerts ?? { dispatch: async () => ({}), destinations: [] },
    records: deps.records,
    points: series === undefined ? undefined : { config: config.qlikCloud.timeseriesdb, series },
    logger,
    scriptLogFiles: deps.scriptLogFiles,
  });
}

export interface TenantLicencesWiring {
  readonly config: Config;
  readonly tenants: ReadonlyMap<string, CloudTenantOutputs>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly cwd: string;
  /** Where the licence gauges are (the local process's scrape endpoint); the cloud functions have none. */
  readonly gauges?: MetricsRegistry | undefined;
}

/**
 * The licence reading of the tenants whose `licences.enable` is on; undefined when there is none
 * (or `qlikCloud.enable` is off).
 */
export function tenantLicencesOf(deps: TenantLicencesWiring): TenantLicences | undefined {
  const { config, logger } = deps;
  if (!config.qlikCloud.enable) return undefined;
  const licensed = config.qlikCloud.tenants.flatMap((tenant) => {
    const outputs = deps.tenants.get(tenant.name);
    return tenant.licences.enable && outputs !== undefined
      ? [{ name: tenant.name, client: outputs.client, tags: outputs.tags }]
      : [];
  });
  if (licensed.length === 0) return undefined;
  const series = config.timeseriesdbConfig.enable
    ? ensuringDatabase(createTimeseriesClient(config.timeseriesdbConfig, { cwd: deps.cwd }), {
        logger: logger.child("timeseriesdb"),
      })
    : undefined;
  return createTenantLicences({
    tenants: licensed,
    write: series === undefined ? undefined : (points) => series.write(points),
    gauges: deps.gauges === undefined ? undefined : licenceGaugesOf(deps.gauges),
    clock: deps.clock,
    logger,
  });
}
