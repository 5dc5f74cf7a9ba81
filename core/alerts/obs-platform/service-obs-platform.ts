/**
 * What a watched Windows service's change of state becomes on the observability platform
 * (`incidentTool.newRelic.serviceMonitor`): an event `qs_serviceStateEvent` and a log entry of
 * `logtype` `qs_serviceStateLog`, each with the service's attributes under the names of its
 * template fields (`qs_host`, `qs_serviceName`, `qs_serviceStatus`, `qs_servicePrevStatus`, ...),
 * to the accounts the block lists and those of `destinationAccount`. `monitorServiceState` says
 * which changes are sent: `running` the services RUNNING again, `stopped` those that left
 * RUNNING. Static attributes come first, so they never replace a `qs_*` attribute.
 */
import type { NewRelicIncidentConfig } from "../../config/index.ts";
import type { ObservabilityEvent, ObservabilityLogBatch } from "../../ports.ts";
import type { ServiceStateAlert, ServiceStateAlertKind } from "../service-state-alert.ts";
import { SERVICE_EVENT, serviceSentence } from "../service-state-fields.ts";

type Settings = NewRelicIncidentConfig["serviceMonitor"];

/** The targets (event, log) the block switches on for alerts of `kind`. */
export function serviceTargets(settings: Settings, kind: ServiceStateAlertKind): ("event" | "log")[] {
  const state = kind === "serviceStarted" ? "running" : "stopped";
  if (!settings.monitorServiceState[state].enable) return [];
  return (["event", "log"] as const).filter((target) => settings.destination[target].enable);
}

function attributes(alert: ServiceStateAlert, settings: Settings, version: string): Record<string, string> {
  return {
    ...Object.fromEntries(settings.attribute.static.map(({ name, value }) => [name, value])),
    version,
    qs_event: SERVICE_EVENT[alert.change],
    qs_host: alert.host,
    qs_serviceName: alert.service,
    qs_serviceDisplayName: alert.displayName,
    qs_serviceFriendlyName: alert.friendlyName,
    qs_serviceStatus: alert.state,
    qs_servicePrevStatus: alert.previous,
    qs_serviceStartType: alert.startType,
    qs_serviceExePath: alert.exePath,
  };
}

export function serviceObsPlatformEvent(
  alert: ServiceStateAlert,
  settings: Settings,
  version: string,
): ObservabilityEvent {
  return {
    eventType: "qs_serviceStateEvent",
    timestamp: Date.parse(alert.at),
    attributes: Object.entries(attributes(alert, settings, version)).map(([name, value]) => ({
      name,
      value,
    })),
  };
}

export function serviceObsPlatformLog(
  alert: ServiceStateAlert,
  settings: Settings,
  version: string,
): ObservabilityLogBatch {
  return {
    attributes: { ...attributes(alert, settings, version), logtype: "qs_serviceStateLog" },
    messages: [serviceSentence(alert)],
  };
}
