/**
 * The Steward configuration `steward simulate-qlik-cloud` writes: every simulated tenant under
 * `qlikCloud.tenants` with its OAuth client and webhook secret (throw-away values of the
 * simulator), polled every minute and reading one hour back at the first start; the ingest API's
 * listener where the simulator delivers the webhooks (with no audit destination: nothing else
 * arrives there); an outgoing webhook for failed and canceled reloads to the simulator's webhook
 * catcher, so that a first try ends in an alert one can see (the simulator logs each call it
 * catches), as simulate-platform's does; the scrape endpoint and the status page to watch the
 * runs come in. Written with
 * the YAML library, as one document check-config accepts as it is.
 */
import { stringify } from "yaml";
import type { SimulatedTenant } from "../simulated-cloud/simulated-tenant.ts";

/** The first line of what simulate-qlik-cloud writes: how `--write-config` knows a file it may replace. */
export const CLOUD_SNIPPET_FIRST_LINE =
  "# Steward taking reload runs from the simulated Qlik Cloud tenants of steward simulate-qlik-cloud,";

export interface CloudSnippetOptions {
  readonly tenants: readonly SimulatedTenant[];
  /** Steward's ingest API listener, where the webhooks are delivered. */
  readonly ingest: { readonly host: string; readonly port: number };
  /** The simulator's webhook catcher, where the failed and canceled reloads' alerts go. */
  readonly catcherUrl: string;
}

export function simulatedCloudSnippet(options: CloudSnippetOptions): string {
  const config = {
    Service: {
      auditEvents: {
        enable: true,
        host: options.ingest.host,
        port: options.ingest.port,
        destination: { enable: false },
      },
      webhookNotification: {
        enable: true,
        reloadTaskFailure: catcher(options.catcherUrl, "reload-failure"),
        reloadTaskAborted: catcher(options.catcherUrl, "reload-aborted"),
      },
      scrapeEndpoint: { enable: true, host: "127.0.0.1", port: 9842 },
      configVisualisation: { enable: true, host: "127.0.0.1", port: 3100 },
      qlikCloud: {
        enable: true,
        tenants: options.tenants.map((tenant) => ({
          name: tenant.fixture.name,
          url: tenant.url,
          auth: { oauth: { clientId: tenant.fixture.clientId, clientSecret: tenant.fixture.clientSecret } },
          webhook: { enable: true, secret: tenant.fixture.webhookSecret },
          poll: { enable: true, interval: "every 1 minutes", initialHours: 1 },
          tags: { static: [{ name: "qs_env", value: "simulated" }] },
        })),
      },
    },
  };
  return [
    CLOUD_SNIPPET_FIRST_LINE,
    "# with their webhooks delivered to the ingest API's listener and polled every minute; failed and",
    `# canceled reloads alerted to the simulator's webhook catcher (${options.catcherUrl}/), which logs every call.`,
    "# The secrets are the simulator's throw-away values; the scrape endpoint (/metrics) and the",
    "# status page (/status) show the runs as they come in.",
    stringify(config),
  ].join("\n");
}

/** One outgoing webhook to the catcher; no rate limit, so that every failure of the try shows. */
function catcher(url: string, kind: string) {
  return { rateLimit: 0, webhooks: [{ description: "simulator's catcher", webhookURL: `${url}/${kind}` }] };
}
