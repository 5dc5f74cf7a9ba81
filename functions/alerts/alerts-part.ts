/**
 * The alerts part: one for every producer of alerts (reload-task events, the licence monitor's
 * server licence, the Qlik Cloud tenants' reloads, the Windows services watched), on while one of
 * them is. Both runtimes start it: the local process (local/wiring.ts) and the Qlik Cloud
 * functions (functions/qlik-cloud/cloud-function-parts.ts), so it lives beside the functions,
 * which the local process already builds on. It opens the clients once (alert-clients.ts), builds
 * the destinations of the channels switched on once (core/alerts/alert-channels.ts), with one
 * budget of alerts per minute per destination whatever the kind, and its dispatcher is what the
 * producers are handed in their deps (`alerts`). local/wiring.ts starts it before the agent's
 * parts, so it serves the licence monitor's first run and stops after every producer has handed
 * over its last alert; then it closes the clients, once.
 */
import { readFile } from "node:fs/promises";
import {
  type AlertDispatcher,
  alertBudgetLimits,
  buildAlertDestinations,
  createAlertBudget,
  createAlertDispatcher,
  createSharedAlertRateLimit,
  type EmailClient,
} from "../../core/alerts/index.ts";
import type { Config } from "../../core/config/index.ts";
import type { Clock, Logger, MetricsRegistry, RateLimitStore, Stoppable } from "../../core/ports.ts";
import { SERVICE_VERSION } from "../../core/version.ts";
import { openAlertClients } from "./alert-clients.ts";

/**
 * Whether a producer of alerts is on: reload-task events, the licence monitor reading the server
 * licence, Qlik Cloud tenants, or the Windows service monitor.
 */
export function alertsOn(
  config: Pick<Config, "taskEvents" | "licenseMonitor" | "qlikCloud" | "serviceMonitor">,
): boolean {
  const licences = config.licenseMonitor;
  return (
    config.taskEvents.enable ||
    (licences.enable && licences.serverLicense.enable) ||
    config.qlikCloud.enable ||
    config.serviceMonitor.enable
  );
}

export interface AlertsOptions {
  readonly config: Config;
  /** Each destination logs under its name below it; the dispatcher and the budget under `alerts`. */
  readonly logger: Logger;
  readonly clock: Clock;
  /** Where `steward_alerts_total` is counted. */
  readonly metrics?: MetricsRegistry | undefined;
  /** The SMTP client of the settings; nodemailer's by default. */
  readonly emailClient?: ((smtp: Config["emailNotification"]["smtp"]) => EmailClient) | undefined;
  /** Where the rate limits' windows are kept when several processes share them (the cloud functions); in this process without it. */
  readonly sharedRateLimits?: RateLimitStore | undefined;
}

export interface Alerts extends Stoppable {
  readonly dispatcher: AlertDispatcher;
}

export async function startAlerts(options: AlertsOptions): Promise<Alerts> {
  const { config, logger, clock } = options;
  const clients = openAlertClients({ config, logger, clock, emailClient: options.emailClient });
  const own = logger.child("alerts");
  const destinations = buildAlertDestinations(config, {
    clients,
    readTemplate: (path) => readFile(path, "utf8"),
    logger,
    view: {
      links: { qlikSenseUrls: config.qlikSenseUrls, genericUrls: config.genericUrls },
      hostName: config.platform.host,
      version: SERVICE_VERSION,
    },
  });
  const dispatcher = createAlertDispatcher({
    destinations,
    clock,
    logger: own,
    metrics: options.metrics,
    budget: createAlertBudget({ limits: alertBudgetLimits(config), clock, logger: own }),
    sharedRateLimit: sharedRateLimitOf(options.sharedRateLimits, clock, own),
  });
  let stopped = false;
  return {
    dispatcher,
    async stop() {
      if (stopped) return;
      stopped = true;
      clients.close();
    },
  };
}

function sharedRateLimitOf(store: RateLimitStore | undefined, clock: Clock, logger: Logger) {
  if (store === undefined) return undefined;
  return (destination: string) =>
    createSharedAlertRateLimit({ store, destination, now: () => clock.now(), logger });
}

/** The dispatcher while no producer of alerts is on: no destination. */
export function noAlerts(clock: Clock, logger: Logger): AlertDispatcher {
  return createAlertDispatcher({ destinations: [], clock, logger });
}
