/**
 * The observability-platform destination of task alerts when `incidentTool.newRelic` is on: one
 * client per alert kind (each kind has its own headers) posting to the section's event and log
 * URLs with the accounts of `thirdPartyToolsCredentials.obsPlatform`.
 */
import { createObservabilityClient } from "../../core/adapters/http-clients/observability-client.ts";
import type { AlertBudget } from "../../core/alerts/alert-budget.ts";
import {
  createObsPlatformDestination,
  OBS_PLATFORM_ALERT_DESTINATION,
} from "../../core/alerts/obs-platform-destination.ts";
import type { ObsPlatformKind } from "../../core/alerts/obs-platform-payload.ts";
import type { Config } from "../../core/config/index.ts";
import type { Clock, Logger } from "../../core/ports.ts";
import type { AlertDestination } from "../../core/task-events/alert-destination.ts";
import { SERVICE_VERSION } from "../../core/version.ts";
import type { AlertDestinationFactory } from "./alert-destinations.ts";

/** Milliseconds one post may take: a platform that does not answer never holds an alert longer. */
const POST_TIMEOUT_MS = 10_000;

/** The destination, or undefined while the section is off. */
export function obsPlatformDestination(
  config: Pick<Config, "incidentTool" | "thirdPartyToolsCredentials" | "qlikSenseUrls" | "genericUrls">,
  deps: { logger: Logger; clock: Clock; budget?: AlertBudget | undefined },
): AlertDestination | undefined {
  const settings = config.incidentTool.newRelic;
  if (!settings.enable) return undefined;
  const clientOf = (kind: ObsPlatformKind) => {
    const headers = settings[kind].sharedSettings.header;
    const target = (url: string) => ({ url, headers, staticAttributes: [], accounts: [] });
    return createObservabilityClient({
      event: target(settings.url.event),
      metric: target(settings.url.event),
      log: target(settings.url.log),
      clock: deps.clock,
      timeoutMs: POST_TIMEOUT_MS,
    });
  };
  const clients = {
    reloadTaskFailure: clientOf("reloadTaskFailure"),
    reloadTaskAborted: clientOf("reloadTaskAborted"),
  };
  return createObsPlatformDestination(settings, {
    clientFor: (kind) => clients[kind],
    accounts: config.thirdPartyToolsCredentials.obsPlatform,
    logger: deps.logger.child("obs-platform"),
    links: { qlikSenseUrls: config.qlikSenseUrls, genericUrls: config.genericUrls },
    version: SERVICE_VERSION,
    budget: deps.budget?.forDestination(OBS_PLATFORM_ALERT_DESTINATION),
  });
}

export const obsPlatformAlerts: AlertDestinationFactory = ({ config, logger, clock, alertBudget }) =>
  obsPlatformDestination(config, { logger, clock, budget: alertBudget });
