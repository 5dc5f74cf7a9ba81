/**
 * The Steward configuration `steward simulate-platform` writes: engine health and proxy sessions
 * of every simulated server, app names from the first one, the scrape endpoint to watch the values
 * change and the status page to see them, over the simulated platform's client certificate. With
 * `--task-events`, also the task-event listener where the datagrams go and a webhook for failed
 * and aborted reloads to the simulator's own catcher, so that a first try ends in an alert one can
 * see. Every server is tagged `qs_env: simulated`: `qs_env` is the tag the shipped dashboards'
 * Environment variable reads, so the dashboards show the simulated servers' data. Written with the
 * YAML library, so any path or host comes out quoted where YAML needs it; check-config accepts it
 * as written, and it is one YAML document, so it can be redirected into a file.
 */
import { stringify } from "yaml";

export interface SnippetOptions {
  /** The address Steward connects to (a host name or IP address, IPv6 without brackets). */
  readonly host: string;
  /** One port per simulated server, in order. */
  readonly ports: readonly number[];
  /** Absolute paths of the client certificate, its key and the CA that signed the servers'. */
  readonly files: { readonly clientCert: string; readonly clientKey: string; readonly ca: string };
  /** `--task-events`: where the datagrams go, and the URL of the simulator's webhook catcher. */
  readonly taskEvents?: {
    readonly host: string;
    readonly port: number;
    readonly catcherUrl: string;
  };
}

/** The first line of what simulate-platform writes: how `--write-config` knows a file it may replace. */
export const SNIPPET_FIRST_LINE =
  "# Steward polling the simulated platform: engine health and proxy sessions of every server,";

/** The environment tag of the shipped dashboards (docs/dashboards.md). */
const ENVIRONMENT_TAG = "qs_env";
/** Polled every 10 s (the default is 30 s), so a first look shows the values changing. */
const POLLING_INTERVAL_MS = 10_000;
/** Every minute (the default is every 6 hours), so a first look shows the licence counts changing. */
const LICENSE_FREQUENCY = "every 1 minutes";
/** The scrape endpoint's default address: this machine only. */
const SCRAPE = { host: "127.0.0.1", port: 9842 } as const;
/** The status page's default port, on this machine only. */
const STATUS_PAGE = { host: "127.0.0.1", port: 3100 } as const;

export function stewardConfigSnippet(options: SnippetOptions): string {
  const { host, ports, files } = options;
  const [firstPort] = ports;
  if (firstPort === undefined) throw new RangeError("the snippet needs at least one server");
  const address = (port: number) => hostPort(host, port);
  const config = {
    Service: {
      cert: { clientCert: files.clientCert, clientCertKey: files.clientKey, clientCertCA: files.ca },
      platform: { host, repositoryPort: firstPort },
      appNames: { enableAppNameExtract: true, hostIP: host },
      userSessions: { enableSessionExtract: true, pollingInterval: POLLING_INTERVAL_MS },
      serversToMonitor: {
        pollingInterval: POLLING_INTERVAL_MS,
        serverTagsDefinition: [ENVIRONMENT_TAG],
        servers: ports.map((port, index) => ({
          host: address(port),
          serverName: `simulated-${index + 1}`,
          serverDescription: `Simulated platform server ${index + 1}`,
          userSessions: { enable: true, host: address(port), virtualProxies: [{ virtualProxy: "/" }] },
          serverTags: { [ENVIRONMENT_TAG]: "simulated" },
        })),
      },
      licenseMonitor: {
        enable: true,
        frequency: LICENSE_FREQUENCY,
        timeseriesdb: { tag: { static: [{ name: ENVIRONMENT_TAG, value: "simulated" }] } },
        version: { port: firstPort },
        licenseRelease: {
          enable: true,
          dryRun: true,
          neverRelease: {
            user: [{ userDir: "INTERNAL", userId: "sa_repository" }],
            userDirectory: ["ADMIN"],
          },
        },
      },
      scrapeEndpoint: { enable: true, ...SCRAPE },
      configVisualisation: { enable: true, ...STATUS_PAGE },
      ...(options.taskEvents === undefined ? {} : taskEventSections(options.taskEvents)),
    },
  };
  const header = [
    SNIPPET_FIRST_LINE,
    "# app names and licences from the first (licence release in a dry run: it only logs),",
    `# metrics at http://${SCRAPE.host}:${SCRAPE.port}/metrics, the status page at http://${STATUS_PAGE.host}:${STATUS_PAGE.port}/.`,
    ...(options.taskEvents === undefined
      ? []
      : [
          `# Reload-task events from the simulator on ${hostPort(options.taskEvents.host, options.taskEvents.port)}; failed and aborted`,
          "# reloads alerted to the simulator's webhook catcher, which prints every call it gets.",
        ]),
  ];
  return `${header.join("\n")}\n${stringify(config, { lineWidth: 0 })}`;
}

/** `host:port`, an IPv6 address bracketed. */
function hostPort(host: string, port: number): string {
  return `${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/**
 * Task events on, listening where the datagrams go (the simulated repository answers the lookups
 * of the `platform` above), and a webhook per kind to the catcher.
 */
function taskEventSections(target: NonNullable<SnippetOptions["taskEvents"]>) {
  const webhook = (kind: string) => ({
    webhooks: [{ description: "simulator's catcher", webhookURL: `${target.catcherUrl}/${kind}` }],
  });
  return {
    taskEvents: {
      enable: true,
      udpServerConfig: { serverHost: target.host, portTaskEvents: target.port },
    },
    webhookNotification: {
      enable: true,
      reloadTaskFailure: webhook("reload-task-failure"),
      reloadTaskAborted: webhook("reload-task-aborted"),
    },
  };
}
