/**
 * The template fields of a Windows service's alert, beside the task and licence alerts'
 * (task-fields.ts, licence-fields.ts): the sentence every destination leads with ("Windows
 * service Repository stopped on sense1.example.com (was RUNNING)") and the fields an operator's
 * own email, Teams or Slack template can use, under Butler's names (`host`, `serviceName`,
 * `serviceDisplayName`, `serviceFriendlyName`, `serviceStatus`, `servicePrevStatus`,
 * `serviceStartType`, `serviceExePath`), so that templates built for Butler keep working.
 */
import type { AlertLinks } from "./alert-view.ts";
import type { ServiceStateAlert } from "./service-state-alert.ts";

/** The event texts of the webhooks and the observability platform. */
export const SERVICE_EVENT = {
  stopped: "Windows service stopped",
  started: "Windows service started",
  changed: "Windows service state changed",
} as const;

export function serviceSentence(
  alert: Pick<ServiceStateAlert, "change" | "friendlyName" | "host" | "state" | "previous">,
): string {
  const what = `Windows service ${alert.friendlyName}`;
  const was = `(was ${alert.previous})`;
  if (alert.change === "stopped") return `${what} stopped on ${alert.host} ${was}`;
  if (alert.change === "started") return `${what} started on ${alert.host} ${was}`;
  return `${what} is ${alert.state} on ${alert.host} ${was}`;
}

export interface ServiceTemplateFields {
  /** `Windows service stopped`, `Windows service started` or `Windows service state changed`. */
  readonly event: string;
  /** The built-in sentence. */
  readonly message: string;
  /** True unless the service is RUNNING again: the built-in messages show it in red. */
  readonly serviceNotRunning: boolean;
  readonly host: string;
  readonly serviceName: string;
  readonly serviceDisplayName: string;
  readonly serviceFriendlyName: string;
  readonly serviceStatus: string;
  readonly servicePrevStatus: string;
  readonly serviceStartType: string;
  readonly serviceExePath: string;
  /** The services it depends on, comma-separated. */
  readonly serviceDependencies: string;
  /** ISO time of the reading that saw the change. */
  readonly alertTime: string;
  readonly qlikSenseQMC: string;
  readonly qlikSenseHub: string;
  readonly genericUrls: AlertLinks["genericUrls"];
}

/**
 * What every message of a service's change says of it, in Butler's field names: the template
 * fields start with these, and the webhook payload is these alone.
 */
export function serviceFacts(alert: ServiceStateAlert) {
  return {
    event: SERVICE_EVENT[alert.change],
    message: serviceSentence(alert),
    host: alert.host,
    serviceName: alert.service,
    serviceDisplayName: alert.displayName,
    serviceFriendlyName: alert.friendlyName,
    serviceStatus: alert.state,
    servicePrevStatus: alert.previous,
    serviceStartType: alert.startType,
    serviceExePath: alert.exePath,
    alertTime: alert.at,
  };
}

export function serviceTemplateFields(alert: ServiceStateAlert, links: AlertLinks): ServiceTemplateFields {
  return {
    ...serviceFacts(alert),
    serviceNotRunning: alert.state !== "RUNNING",
    serviceDependencies: alert.dependencies.join(", "),
    qlikSenseQMC: links.qlikSenseUrls.qmc,
    qlikSenseHub: links.qlikSenseUrls.hub,
    genericUrls: links.genericUrls,
  };
}
