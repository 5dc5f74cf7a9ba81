/**
 * `steward.yaml` for a site with everything the dashboards read switched on, written to one
 * InfluxDB 1.x database: health and sessions of the simulated platform's servers, UDP user and
 * log events of every source (engine performance monitor kept and rejected), event counts, queue
 * metrics, Steward's memory and errors, the licence monitor (releasing for real), reload-task
 * events (failed and successful runs, enriched from the simulated repository), audit events
 * with their queue metrics, the scrape endpoint and a heartbeat; with `tenants`, Qlik Cloud tenants
 * polled every second, their failed and successful runs written as points tagged with the tenant.
 * Every configurable tag list carries `qs_env`, the tag the dashboards'
 * environment variable reads. Intervals are short so that everything is written within seconds.
 */
import { stringify } from "yaml";
import type { SimulatedTenant } from "../../local/simulated-cloud/simulated-tenant.ts";
import type { TestPlatform } from "../fixtures/platform/test-platform.ts";

export interface OperationsSiteOptions {
  platform: TestPlatform;
  /** Names of the platform's servers, in order. */
  serverNames: readonly string[];
  influx: { port: number; database: string };
  ports: { user: number; log: number; task: number; scrape: number; ingest: number; rest: number };
  heartbeatUrl: string;
  environment: string;
  /** Qlik Cloud tenants, polled (no webhook); none by default. */
  tenants?: readonly SimulatedTenant[];
}

/** The tenants polled every second, reading an hour back, their runs' points tagged `qs_env` too. */
function qlikCloudSection(
  tenants: readonly SimulatedTenant[],
  tags: readonly { name: string; value: string }[],
) {
  return {
    enable: true,
    tenants: tenants.map((tenant) => ({
      name: tenant.fixture.name,
      url: tenant.url,
      auth: { oauth: { clientId: tenant.fixture.clientId, clientSecret: tenant.fixture.clientSecret } },
      webhook: { enable: false },
      poll: { enable: true, interval: "every 1 seconds", initialHours: 1 },
      tags: { static: tags },
    })),
    timeseriesdb: { reloadFailure: { enable: true }, reloadSuccess: { enable: true } },
  };
}

export function operationsSiteConfig(options: OperationsSiteOptions): string {
  const { platform, ports, environment } = options;
  const tags = [{ name: "qs_env", value: environment }];
  const queueMetrics = { timeseriesdb: { enable: true, writeFrequency: 500, tags } };
  const on = { enable: true };
  const servers = options.serverNames.map((name, index) => {
    const server = platform.servers[index];
    if (server === undefined) throw new Error(`no simulated server ${index}`);
    return {
      host: server.address,
      serverName: name,
      serverDescription: `${name} node`,
      serverTags: { qs_env: environment },
      userSessions: {
        enable: true,
        host: server.address,
        virtualProxies: [{ virtualProxy: "/" }, { virtualProxy: "hdr" }],
      },
    };
  });
  return stringify({
    Service: {
      restServer: { port: ports.rest },
      auditEvents: {
        port: ports.ingest,
        queue: { queueMetrics },
        destination: {
          enable: true,
          type: "timeseriesdb",
          timeseriesdb: { writeFrequency: 300, measurementName: "audit_event", staticTags: tags },
        },
      },
      cert: {
        clientCert: platform.pki.clientCertPath,
        clientCertKey: platform.pki.clientKeyPath,
        clientCertCA: platform.pki.caPath,
      },
      platform: { host: "127.0.0.1", repositoryPort: platform.servers[0]?.port },
      timeseriesdbConfig: {
        enable: true,
        version: 1,
        host: "127.0.0.1",
        port: options.influx.port,
        v1Config: { dbName: options.influx.database },
      },
      scrapeEndpoint: { enable: true, host: "127.0.0.1", port: ports.scrape },
      heartbeat: { enable: true, remoteURL: options.heartbeatUrl, frequency: "every 1 second" },
      errorTracking: on,
      uptimeMonitor: { enable: true, frequency: "every 1 second" },
      platformEvents: {
        timeseriesdb: { enable: true, writeFrequency: 500 },
        eventCount: { enable: true, timeseriesdb: { tags } },
        rejectedEventCount: on,
      },
      userEvents: {
        enable: true,
        tags,
        udpServerConfig: { serverHost: "127.0.0.1", portUserActivityEvents: ports.user, queueMetrics },
        sendToTimeseriesdb: on,
      },
      logEvents: {
        tags,
        udpServerConfig: { serverHost: "127.0.0.1", portLogEvents: ports.log, queueMetrics },
        source: { engine: on, proxy: on, repository: on, scheduler: on, engineApiPerf: on },
        categorise: on,
        enginePerformanceMonitor: {
          enable: true,
          trackRejectedEvents: { enable: true, tags },
          monitorFilter: {
            allApps: {
              enable: true,
              method: { allMethods: false, someMethodsInclude: ["Doc::GetAppLayout"] },
            },
          },
        },
        sendToTimeseriesdb: on,
      },
      taskEvents: {
        enable: true,
        udpServerConfig: { serverHost: "127.0.0.1", portTaskEvents: ports.task, queueMetrics },
        timeseriesdb: {
          tag: { static: tags },
          reloadTaskFailure: on,
          reloadTaskSuccess: { enable: true, allReloadTasks: on },
        },
      },
      userSessions: { enableSessionExtract: true, pollingInterval: 1000 },
      serversToMonitor: {
        pollingInterval: 1000,
        rejectUnauthorized: true,
        serverTagsDefinition: ["qs_env"],
        servers,
      },
      // Released for real, so that the released-licences panels have points too.
      licenseMonitor: {
        enable: true,
        timeseriesdb: { tag: { static: tags } },
        version: { port: platform.servers[0]?.port },
        licenseRelease: { enable: true, dryRun: false },
      },
      ...(options.tenants === undefined ? {} : { qlikCloud: qlikCloudSection(options.tenants, tags) }),
    },
  });
}
