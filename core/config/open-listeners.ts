/**
 * The listeners that answer without a token, and where they may. The rule: **what answers
 * without a token listens on loopback only, unless its section says `allowUnauthenticated:
 * true`** (then it warns at start). A listener on loopback is reached from this machine only,
 * and its Host check (local/http/host-check.ts) keeps web pages that rebind a name to 127.0.0.1
 * out; on any other address, anyone who reaches the port gets the answers, and that must be a
 * choice written in the file, not a default an operator did not notice. A file that breaks the
 * rule is a configuration error (`check-config` and `start` report it with the rest, exit 1).
 *
 * - The REST API (`restServer`) without `apiToken`: it changes key-values and schedules, starts
 *   reloads, moves files. Besides a host other than loopback, `*` among `cors.allowedOrigins`
 *   needs a token or `allowUnauthenticated` too: it lets every web page the operator's browser
 *   opens call it. Without a token it warns at start even on loopback.
 * - The config UI and status page (`configVisualisation`) and the scrape endpoint
 *   (`scrapeEndpoint`) have no token at all: the configuration (secrets masked unless
 *   `obfuscate: false`), the status, the metrics. A Prometheus server on another machine is the
 *   usual reason to set `scrapeEndpoint.allowUnauthenticated: true`.
 * - The ingest API is not held to it: it must face every user's browser, its token (when set)
 *   ships to those browsers, and it only takes events; without a token it warns at start
 *   (local/audit/local-ingest.ts).
 */
import { type ConfigProblem, problem } from "./problems.ts";
import type { Config } from "./schema/config.ts";
import { isLoopbackHost } from "./validators.ts";

const S = "Service";

export type OpenListenerSection = "restServer" | "configVisualisation" | "scrapeEndpoint";

const address = (host: string, port: number) => `${host.includes(":") ? `[${host}]` : host}:${port}`;

/** A configuration error for every listener that would answer without a token where the rule forbids it. */
export function checkOpenListeners(config: Config, out: ConfigProblem[]): void {
  const rest = config.restServer;
  if (rest.enable && rest.apiToken === "" && !rest.allowUnauthenticated) {
    if (!isLoopbackHost(rest.host)) {
      out.push(
        problem(
          [S, "restServer", "host"],
          `${rest.host} is not a loopback address and restServer.apiToken is empty: anyone who reaches ${address(rest.host, rest.port)} could call the REST API (key-values, schedules, reloads, files); set apiToken (from an environment variable), or allowUnauthenticated: true to serve it without a token`,
        ),
      );
    }
    if (rest.cors.allowedOrigins.includes("*")) {
      out.push(
        problem(
          [S, "restServer", "cors", "allowedOrigins"],
          '"*" lets any web page call the REST API and restServer.apiToken is empty: set apiToken, list the origins that may call it, or set allowUnauthenticated: true',
        ),
      );
    }
  }
  for (const section of ["configVisualisation", "scrapeEndpoint"] as const) {
    const settings = config[section];
    if (!settings.enable || settings.allowUnauthenticated || isLoopbackHost(settings.host)) continue;
    const what =
      section === "configVisualisation"
        ? "the status page has no token: anyone who reaches it would read the configuration and status; keep it on 127.0.0.1 (with an authenticating proxy in front for other machines)"
        : "the scrape endpoint has no token: anyone who reaches it would read the metrics; keep it on 127.0.0.1";
    out.push(
      problem(
        [S, section, "host"],
        `${settings.host} is not a loopback address and ${what}, or set ${section}.allowUnauthenticated: true to serve ${address(settings.host, settings.port)} to other machines`,
      ),
    );
  }
}

function restWarning(config: Config): string | undefined {
  const rest = config.restServer;
  if (rest.apiToken !== "") return undefined;
  const at = address(rest.host, rest.port);
  const elsewhere = !isLoopbackHost(rest.host);
  const anyOrigin = rest.cors.allowedOrigins.includes("*");
  if (!elsewhere && !anyOrigin) {
    return `No restServer.apiToken configured: any program on this machine may call the REST API (${at}); set one to require it`;
  }
  const who = [
    elsewhere ? "any client that reaches it" : "",
    anyOrigin ? "any web page (cors.allowedOrigins holds *)" : "",
  ]
    .filter((part) => part !== "")
    .join(" and ");
  return `restServer.allowUnauthenticated is true: the REST API on ${at} answers ${who}, without a token`;
}

/**
 * The WARN a listener logs at start when it answers without a token: always for the REST API
 * without `apiToken`; for the others only where `allowUnauthenticated` lets them off loopback.
 */
export function openListenerWarning(config: Config, section: OpenListenerSection): string | undefined {
  if (section === "restServer") return restWarning(config);
  const settings = config[section];
  if (isLoopbackHost(settings.host)) return undefined;
  const at = address(settings.host, settings.port);
  if (section === "scrapeEndpoint") {
    return `scrapeEndpoint.allowUnauthenticated is true: /metrics on ${at} answers anyone who reaches it`;
  }
  const secrets = config.configVisualisation.obfuscate ? "" : ", secrets in clear (obfuscate is false)";
  return `configVisualisation.allowUnauthenticated is true: the status page on ${at} shows the configuration and status to anyone who reaches it${secrets}`;
}
