/**
 * The records of a watched Windows service under Butler's names, so that dashboards and broker
 * subscribers made for Butler read them unchanged: the InfluxDB point `win_service_state` (tags
 * `host`, `service_name`, `display_name`, `friendly_name`, over static tags of the same names; fields
 * `state_num`, `state_text`, `startup_mode_num`, `startup_mode_text`, numbers as floats as Butler
 * wrote them, -1 for a state or start type it had no number for), and the broker messages
 * `<topic>/<host>/<service>`: the state with the previous one and whether it changed (Butler's
 * `serviceRunningTopic` and `serviceStoppedTopic`), and the state alone (`serviceStatusTopic`).
 */
import type { BrokerMessage } from "../shared/broker-message.ts";
import { floatField, type Point, stringField } from "../shared/line-protocol.ts";
import { SERVICE_STATES, type ServiceReading, type ServiceState } from "./service-state-reader.ts";

/** A service as configured: its host, its service name and the name people know it by. */
export interface WatchedService {
  readonly host: string;
  readonly service: string;
  readonly friendlyName: string;
}

export type SuccessfulReading = Extract<ServiceReading, { ok: true }>;

/** Butler's numbers for the start types it named. */
const STARTUP_MODES: Readonly<Record<string, number>> = {
  Automatic: 0,
  "Automatic (delayed start)": 1,
  Manual: 2,
  Disabled: 3,
};

export function serviceStatePoint(
  watched: WatchedService,
  reading: SuccessfulReading,
  staticTags: readonly { name: string; value: string }[],
): Point {
  return {
    measurement: "win_service_state",
    tags: {
      ...Object.fromEntries(staticTags.map(({ name, value }) => [name, value])),
      host: watched.host,
      service_name: watched.service,
      display_name: reading.displayName,
      friendly_name: watched.friendlyName,
    },
    fields: {
      state_num: floatField(SERVICE_STATES[reading.state] ?? -1),
      state_text: stringField(reading.state),
      startup_mode_num: floatField(STARTUP_MODES[reading.startType] ?? -1),
      startup_mode_text: stringField(reading.startType),
    },
  };
}

/** What every message says of the service, in Butler's order. */
function described(watched: WatchedService, reading: SuccessfulReading) {
  return {
    serviceHost: watched.host,
    serviceName: watched.service,
    serviceDisplayName: reading.displayName,
    serviceFriendlyName: watched.friendlyName,
    serviceDependencies: reading.dependencies,
    serviceStartType: reading.startType,
    serviceExePath: reading.exePath,
    serviceStatus: reading.state,
  };
}

/** The topic under `root` for this service: `<root>/<host>/<service>`. */
function topicOf(root: string, watched: WatchedService): string {
  return `${root}/${watched.host}/${watched.service}`;
}

/** The state and the one before it (Butler's running and stopped topics). */
export function serviceChangeMessage(
  root: string,
  watched: WatchedService,
  reading: SuccessfulReading,
  previous: ServiceState,
): BrokerMessage {
  return {
    topic: topicOf(root, watched),
    payload: JSON.stringify({
      ...described(watched, reading),
      servicePrevStatus: previous,
      serviceStatusChanged: previous !== reading.state,
    }),
  };
}

/** The state alone (Butler's status topic). */
export function serviceStatusMessage(
  root: string,
  watched: WatchedService,
  reading: SuccessfulReading,
): BrokerMessage {
  return { topic: topicOf(root, watched), payload: JSON.stringify(described(watched, reading)) };
}
