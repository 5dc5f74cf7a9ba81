/**
 * A watched Windows service's change of state, raised by the service monitor after a reading in
 * another state than the last one (never at the first reading, the baseline). Its kinds are the
 * names of the channels' blocks: `serviceStarted` when the service is RUNNING again,
 * `serviceStopped` when it left RUNNING, for STOPPED (`change: "stopped"`) or a paused or pending
 * state (`change: "changed"`): the service is not running then, which is what operators of the
 * stopped block want to know. They are counted in `steward_alerts_total{kind}` under those names.
 * States are sc.exe's words (RUNNING, STOPPED, START_PENDING, ...).
 */

export const SERVICE_STATE_ALERT_KINDS = ["serviceStopped", "serviceStarted"] as const;
export type ServiceStateAlertKind = (typeof SERVICE_STATE_ALERT_KINDS)[number];

export function isServiceStateAlertKind(kind: string): kind is ServiceStateAlertKind {
  return (SERVICE_STATE_ALERT_KINDS as readonly string[]).includes(kind);
}

export interface ServiceStateAlert {
  readonly kind: ServiceStateAlertKind;
  /** `stopped`: now STOPPED; `started`: now RUNNING; `changed`: now paused or pending. */
  readonly change: "stopped" | "started" | "changed";
  readonly host: string;
  /** The service name sc.exe knows, e.g. QlikSenseRepositoryService. */
  readonly service: string;
  /** `friendlyName` of the configuration; the service name when it has none. */
  readonly friendlyName: string;
  /** sc.exe's DISPLAY_NAME; the service name when it could not be read. */
  readonly displayName: string;
  /** Butler's words (`Automatic`, `Manual`, ...); "" when unread. */
  readonly startType: string;
  readonly exePath: string;
  readonly dependencies: readonly string[];
  readonly previous: string;
  readonly state: string;
  /** ISO time of the reading that saw the change. */
  readonly at: string;
}

/** The kind a change is sent under: RUNNING again is `serviceStarted`, anything else `serviceStopped`. */
export function serviceStateKind(state: string): ServiceStateAlertKind {
  return state === "RUNNING" ? "serviceStarted" : "serviceStopped";
}
