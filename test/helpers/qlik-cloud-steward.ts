/**
 * `steward start` taking in simulated Qlik Cloud tenants: the configuration (the ingest API's
 * listener for the webhooks, the scrape endpoint and the status page, every tenant with its OAuth
 * client, webhook secret and polling), each tenant's webhook registered to that listener, and the
 * counts and status the inputs publish; with `outputs`, where the failed reloads' alerts and
 * points go. The output sections and tenant entries make the cloud functions' StewardConfig too
 * (qlik-cloud-functions.ts), so both runtimes are tested with one configuration. No test runner
 * imports: the benchmarks use it too.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import type { SimulatedTenant } from "../../local/simulated-cloud/simulated-tenant.ts";
import { addWebhook } from "../../local/simulated-cloud/tenant-state.ts";
import { freePort } from "./free-port.ts";
import { parsePrometheusText, sampleValue } from "./prometheus-text.ts";

export interface CloudStewardPorts {
  readonly ingest: number;
  readonly scrape: number;
  readonly ui: number;
}

export async function freeCloudStewardPorts(): Promise<CloudStewardPorts> {
  return { ingest: await freePort(), scrape: await freePort(), ui: await freePort() };
}

export interface CloudConfigOptions {
  readonly tenants: readonly CloudTenant[];
  readonly ports: CloudStewardPorts;
  /** `poll.interval` of every tenant (default "every 5 seconds"). */
  readonly pollInterval?: string;
  /** `poll.enable` of every tenant (default true). */
  readonly poll?: boolean;
  readonly logLevel?: string;
  /** Alerts of failed reloads by email, Teams and an outgoing webhook, and reload points to InfluxDB 1.x. */
  readonly outputs?: CloudOutputs;
  /** `qlikCloud.scriptLogFiles.directory`, switched on; absent: off. */
  readonly scriptLogDirectory?: string;
  /** Further sections of `Service` (the observability platform, the broker, ...). */
  readonly extra?: Record<string, unknown>;
}

/** What a configuration needs of a simulated tenant: its fixture (name, credentials, webhook secret) and its URL. */
export type CloudTenant = Pick<SimulatedTenant, "fixture" | "url">;

export interface CloudOutputs {
  /** The SMTP server email alerts go to; absent: no email. */
  readonly smtpPort?: number;
  /** A capture server: Teams posts to `/teams`, the outgoing webhook calls `/hook`. */
  readonly captureUrl: string;
  readonly influxPort: number;
  readonly database: string;
  /** Every channel's `rateLimit` of failed reloads, seconds (default 0: none). */
  readonly rateLimitSeconds?: number;
  /**
   * Failed reloads also to the observability platform, account `Ops`: events to the capture
   * server's `/obs/v1/accounts/1111/events`, log entries to `/obs-log/v1`.
   */
  readonly obsPlatform?: boolean;
}

/** The observability platform's sections of `outputs.obsPlatform`. */
function obsPlatformSections(outputs: CloudOutputs, rateLimit: number) {
  const sendTo = { always: { enable: true, account: ["Ops"] } };
  return {
    thirdPartyToolsCredentials: {
      obsPlatform: [{ accountName: "Ops", insertApiKey: "NRII-ops-secret", accountId: 1111 }],
    },
    incidentTool: {
      newRelic: {
        enable: true,
        url: { event: `${outputs.captureUrl}/obs/`, log: `${outputs.captureUrl}/obs-log/v1` },
        reloadTaskFailure: {
          sharedSettings: { rateLimit },
          destination: {
            event: { enable: true, sendToAccount: sendTo },
            log: { enable: true, sendToAccount: sendTo },
          },
        },
      },
    },
  };
}

/** The sections that send the failed reloads' alerts and write their points. */
export function cloudOutputSections(outputs: CloudOutputs) {
  const rateLimit = outputs.rateLimitSeconds ?? 0;
  return {
    ...(outputs.obsPlatform === true ? obsPlatformSections(outputs, rateLimit) : {}),
    ...(outputs.smtpPort === undefined
      ? {}
      : {
          emailNotification: {
            enable: true,
            smtp: { host: "127.0.0.1", port: outputs.smtpPort },
            reloadTaskFailure: {
              enable: true,
              fromAddress: "steward@example.com",
              recipients: ["ops@example.com"],
              rateLimit,
            },
          },
        }),
    teamsNotification: {
      enable: true,
      reloadTaskFailure: { enable: true, webhookURL: `${outputs.captureUrl}/teams`, rateLimit },
    },
    webhookNotification: {
      enable: true,
      reloadTaskFailure: {
        rateLimit,
        webhooks: [{ webhookURL: `${outputs.captureUrl}/hook`, httpMethod: "POST" }],
      },
    },
    timeseriesdbConfig: {
      enable: true,
      version: 1,
      host: "127.0.0.1",
      port: outputs.influxPort,
      v1Config: { dbName: outputs.database },
    },
  };
}

/** Each tenant's entry of `qlikCloud.tenants`: its OAuth client, its webhook with the secret, and `poll` (an hour's look-back). */
export function cloudTenantEntries(
  tenants: readonly CloudTenant[],
  poll: { readonly enable: boolean; readonly interval?: string },
) {
  return tenants.map((tenant) => ({
    name: tenant.fixture.name,
    url: tenant.url,
    auth: { oauth: { clientId: tenant.fixture.clientId, clientSecret: tenant.fixture.clientSecret } },
    webhook: { enable: true, secret: tenant.fixture.webhookSecret },
    poll: { ...poll, initialHours: 1 },
  }));
}

/** Writes `steward.yaml` into `dir`. */
export function writeCloudConfig(dir: string, options: CloudConfigOptions): void {
  const { ports } = options;
  const config = {
    Service: {
      ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
      restServer: { enable: false },
      ...(options.outputs === undefined ? {} : cloudOutputSections(options.outputs)),
      ...options.extra,
      auditEvents: { enable: true, host: "127.0.0.1", port: ports.ingest, destination: { enable: false } },
      scrapeEndpoint: { enable: true, host: "127.0.0.1", port: ports.scrape },
      configVisualisation: { enable: true, host: "127.0.0.1", port: ports.ui },
      qlikCloud: {
        enable: true,
        ...(options.scriptLogDirectory === undefined
          ? {}
          : { scriptLogFiles: { enable: true, directory: options.scriptLogDirectory } }),
        tenants: cloudTenantEntries(options.tenants, {
          enable: options.poll ?? true,
          interval: options.pollInterval ?? "every 5 seconds",
        }),
      },
    },
  };
  writeFileSync(join(dir, "steward.yaml"), stringify(config));
}

/** The webhook URL of a tenant on Steward's ingest listener. */
export const webhookUrl = (ingestPort: number, tenant: string) =>
  `http://127.0.0.1:${ingestPort}/api/v1/qlik-cloud/webhooks/${tenant}`;

/** Registers each tenant's webhook to Steward's ingest listener, as the webhook command would. */
export function registerWebhooks(tenants: readonly SimulatedTenant[], ingestPort: number): void {
  for (const tenant of tenants) {
    tenant.state.webhooks.clear();
    addWebhook(tenant.state, webhookUrl(ingestPort, tenant.fixture.name));
  }
}

/** `steward_cloud_events_total{tenant, source, outcome}` on the scrape endpoint (0 when not there). */
export async function cloudEventCount(
  scrapePort: number,
  tenant: string,
  source: string,
  outcome: string,
): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${scrapePort}/metrics`)).text();
  return (
    sampleValue(parsePrometheusText(text), "steward_cloud_events_total", { tenant, source, outcome }) ?? 0
  );
}

/** The scrape endpoint's exposition, parsed. */
export async function scrape(scrapePort: number) {
  return parsePrometheusText(await (await fetch(`http://127.0.0.1:${scrapePort}/metrics`)).text());
}

/** `qlikCloud` of `GET /status`: per tenant. */
export async function cloudStatus(uiPort: number): Promise<Record<string, Record<string, unknown>>> {
  const status = (await (await fetch(`http://127.0.0.1:${uiPort}/status`)).json()) as {
    qlikCloud?: Record<string, Record<string, unknown>>;
  };
  return status.qlikCloud ?? {};
}
