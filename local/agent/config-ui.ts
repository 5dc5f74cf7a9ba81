/**
 * The config UI and status page (`configVisualisation`): one listener on
 * `configVisualisation.host:port` serving the app of local/config-ui/app.ts. A port that cannot
 * be bound fails the start (exit 1 with the reason). Once listening, the page's URL is logged.
 * Requests its rate limit refuses are counted as `steward_http_rate_limited_total{listener="config_ui"}`
 * (`config_ui`: the listener the status page lists as `Config UI`).
 */

import { type Config, type ConfigView, configView, openListenerWarning } from "../../core/config/index.ts";
import type { HttpRefusalReason } from "../../core/monitoring/http-refused-metric.ts";
import type { StatusBoard } from "../../core/monitoring/status-board.ts";
import type { Clock, Logger } from "../../core/ports.ts";
import { nodeClientIp } from "../../functions/http/node-client-ip.ts";
import { createConfigUiApp } from "../config-ui/app.ts";
import { type HttpListener, startHttpListener } from "../http/http-listener.ts";
import { listenerTls } from "../http/listener-certificate.ts";
import { listening, startTracked } from "../status/tracked-part.ts";
import type { AgentPart } from "./agent-part.ts";

export interface ConfigUiDeps {
  config: Config;
  /** The configuration file's tree as written (before `${ENV}` substitution); absent: the embedded one. */
  rawTree: unknown;
  /** `--log-level`, when given. */
  logLevel?: string | undefined;
  status: StatusBoard;
  clock: Clock;
  logger: Logger;
  /** Counts each request refused by the rate limit; absent: not counted. */
  countRateLimited?: (() => void) | undefined;
  /** Counts what the listener refuses before answering (`steward_http_refused_total`). */
  countRefused?: ((reason: HttpRefusalReason) => void) | undefined;
  /** Where relative paths of the configuration (the certificate's) start. */
  cwd: string;
}

export async function startConfigUi(deps: ConfigUiDeps): Promise<HttpListener> {
  const settings = deps.config.configVisualisation;
  const warning = openListenerWarning(deps.config, "configVisualisation");
  if (warning !== undefined) deps.logger.warn(warning);
  const view: ConfigView = configView(deps.rawTree, {
    obfuscate: settings.obfuscate,
    logLevel: deps.logLevel,
  });
  const listener = await startHttpListener({
    name: "Config UI",
    app: createConfigUiApp({
      view,
      obfuscated: settings.obfuscate,
      status: deps.status,
      clock: deps.clock,
      logger: deps.logger.child("config-ui"),
      clientIp: nodeClientIp,
      ...(deps.countRateLimited === undefined ? {} : { countRateLimited: deps.countRateLimited }),
    }),
    host: settings.host,
    port: settings.port,
    allowedHosts: settings.allowedHosts,
    hostsSetting: "configVisualisation.allowedHosts",
    countRefused: deps.countRefused,
    tls: listenerTls(deps.config, "configVisualisation", deps.cwd),
    clock: deps.clock,
    logger: deps.logger,
  });
  // The page's address as a browser opens it, for whoever reads the start-up lines.
  deps.logger.info("Status page and configuration", { url: `${listener.url}/` });
  return listener;
}

/** The config UI as an agent part (`configVisualisation.enable`), a listener on the status page. */
export const configUiPart: AgentPart = {
  name: "config-ui",
  enabled: (config) => config.configVisualisation.enable,
  start: (deps) =>
    startTracked(
      "config-ui",
      () =>
        startConfigUi({
          config: deps.config,
          rawTree: deps.configTree,
          logLevel: deps.logLevelOverride,
          status: deps.status,
          clock: deps.clock,
          logger: deps.logger,
          countRateLimited: deps.rateLimited.counter("config_ui"),
          countRefused: deps.httpRefused.counter("config_ui"),
          cwd: deps.cwd,
        }),
      listening(deps.status, "Config UI"),
    ),
};
