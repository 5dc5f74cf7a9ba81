/**
 * The Steward configuration `steward simulate-platform` prints: engine health and proxy sessions
 * of every simulated server, app names from the first one, and the scrape endpoint to watch the
 * values change, over the simulated platform's client certificate. Every server is tagged
 * `qs_env: simulated`: `qs_env` is the tag the shipped dashboards' Environment variable reads, so
 * the dashboards show the simulated servers' data. Written with the YAML library,
 * so any path or host comes out quoted where YAML needs it; check-config accepts it as printed.
 */
import { stringify } from "yaml";

export interface SnippetOptions {
  /** The address Steward connects to (a host name or IP address, IPv6 without brackets). */
  readonly host: string;
  /** One port per simulated server, in order. */
  readonly ports: readonly number[];
  /** Absolute paths of the client certificate, its key and the CA that signed the servers'. */
  readonly files: { readonly clientCert: string; readonly clientKey: string; readonly ca: string };
}

/** The environment tag of the shipped dashboards (docs/dashboards.md). */
const ENVIRONMENT_TAG = "qs_env";
/** Polled every 10 s (the default is 30 s), so a first look shows the values changing. */
const POLLING_INTERVAL_MS = 10_000;
/** Every minute (the default is every 6 hours), so a first look shows the licence counts changing. */
const LICENSE_FREQUENCY = "every 1 minutes";
/** The scrape endpoint's default address: this machine only. */
const SCRAPE = { host: "127.0.0.1", port: 9842 } as const;

export function stewardConfigSnippet(options: SnippetOptions): string {
  const { host, ports, files } = options;
  const [firstPort] = ports;
  if (firstPort === undefined) throw new RangeError("the snippet needs at least one server");
  const address = (port: number) => `${host.includes(":") ? `[${host}]` : host}:${port}`;
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
    },
  };
  const header = [
    "# Steward polling the simulated platform: engine health and proxy sessions of every server,",
    "# app names and licences from the first (licence release in a dry run: it only logs),",
    `# metrics at http://${SCRAPE.host}:${SCRAPE.port}/metrics.`,
  ];
  return `${header.join("\n")}\n${stringify(config, { lineWidth: 0 })}`;
}

/**
 * The lines to add under `Service:` for `--task-events HOST:PORT`: task events on, listening
 * where the datagrams go (the simulated repository answers the lookups of the `platform` above).
 */
export function taskEventsSnippet(target: { readonly host: string; readonly port: number }): string {
  const taskEvents = {
    taskEvents: {
      enable: true,
      udpServerConfig: { serverHost: target.host, portTaskEvents: target.port },
    },
  };
  const body = stringify(taskEvents, { lineWidth: 0 })
    .trimEnd()
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
  return [
    "",
    `# Reload-task datagrams (a failed, an aborted and a successful run in turn) go to ${target.host}:${target.port}`,
    "# every few seconds. Add these lines under Service: to receive them:",
    body,
    "",
  ].join("\n");
}
