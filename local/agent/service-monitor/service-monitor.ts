/**
 * The Windows service monitor (`serviceMonitor.enable`, Windows only: check-config and start
 * refuse it elsewhere): on its schedule (once straight away at start) it reads every configured
 * service of every host with sc.exe (core/adapters/local/sc-service-state-reader.ts; the hosts in
 * parallel, each host's services one after another, so that one slow host never holds the others)
 * and gives each reading its meaning (core/service-monitor/service-watch.ts):
 *
 * - the first successful reading is the baseline: a `win_service_state` point and a status
 *   message, no alert;
 * - a reading in another state is a change: an alert through the alerts part (`serviceStopped` or
 *   `serviceStarted`), a point, a message to the running or stopped topic and a status message;
 * - the same state again writes nothing. Butler wrote a point at every poll; a state is a step
 *   that InfluxDB's `last()` and `fill(previous)` already carry between changes, and a point per
 *   service every 30 seconds only repeats it;
 * - a failed reading (host unreachable, access denied, no such service, timeout) is counted every
 *   time and logged at WARN once per outage and cause, never alerted: the last known state stays,
 *   so a service that stopped while its host could not be read is alerted once it can.
 *
 * The last state, the time of the last reading and its error are on the status page under
 * `serviceMonitor`, the states and counts on the scrape endpoint (service-monitor-metrics.ts).
 */

import { createScServiceStateReader } from "../../../core/adapters/local/sc-service-state-reader.ts";
import {
  type DispatchAlert,
  SERVICE_STATE_ALERT_KINDS,
  type ServiceStateAlert,
  serviceStateKind,
  totalsKey,
} from "../../../core/alerts/index.ts";
import { serviceMonitorDestinations } from "../../../core/config/index.ts";
import type { Stoppable } from "../../../core/ports.ts";
import { startRecurringTimer } from "../../../core/schedules/index.ts";
import {
  type SuccessfulReading,
  serviceChangeMessage,
  serviceStatePoint,
  serviceStatusMessage,
  type WatchedService,
} from "../../../core/service-monitor/service-records.ts";
import type {
  ServiceReading,
  ServiceStateReader,
} from "../../../core/service-monitor/service-state-reader.ts";
import { createServiceWatch, type ServiceWatchOutcome } from "../../../core/service-monitor/service-watch.ts";
import type { BrokerMessage } from "../../../core/shared/broker-message.ts";
import type { Point } from "../../../core/shared/line-protocol.ts";
import { parseRecurrence } from "../../../core/shared/recurrence.ts";
import type { WritingPartDeps } from "../agent-connections.ts";
import type { WritingAgentPart } from "../agent-part.ts";
import { startMonitorDestinations } from "../monitor-destinations.ts";
import { declareServiceMonitorMetrics } from "./service-monitor-metrics.ts";

export interface ServiceMonitorDeps
  extends Pick<WritingPartDeps, "config" | "logger" | "clock" | "metrics" | "connections"> {
  /** Tests inject one (the sc.exe adapter over a stand-in); by default sc.exe with serviceMonitor.timeoutSeconds. */
  reader?: ServiceStateReader | undefined;
  /** Where changes go besides the log, the points and the broker: the alerts part's dispatch. */
  alerts?: DispatchAlert<ServiceStateAlert> | undefined;
}

/** What the status page shows of one watched service. */
export interface WatchedServiceStatus extends WatchedService {
  displayName: string | undefined;
  /** The last known state (sc.exe's word), undefined until the first successful reading. */
  state: string | undefined;
  stateNum: number | undefined;
  /** When the last known state was first seen (the baseline or the last change). */
  since: string | undefined;
  lastReadAt: string | undefined;
  /** The last reading's failure, cleared by a successful one. */
  lastError: { at: string; failure: string; reason: string } | undefined;
}

export interface ServiceMonitorStatus {
  readonly polls: number;
  readonly lastPollAt: string | undefined;
  readonly services: readonly WatchedServiceStatus[];
}

export interface ServiceMonitor extends Stoppable {
  status(): ServiceMonitorStatus;
}

/** The configured services, each with the name alerts show (the service name when none is given). */
function watchedServices(config: ServiceMonitorDeps["config"]): WatchedService[] {
  return config.serviceMonitor.monitor.flatMap(({ host, services }) =>
    services.map(({ name, friendlyName }) => ({ host, service: name, friendlyName: friendlyName || name })),
  );
}

function alertOf(
  watched: WatchedService,
  reading: SuccessfulReading,
  previous: string,
  change: ServiceStateAlert["change"],
  at: string,
): ServiceStateAlert {
  return {
    kind: serviceStateKind(reading.state),
    change,
    host: watched.host,
    service: watched.service,
    friendlyName: watched.friendlyName,
    displayName: reading.displayName,
    startType: reading.startType,
    exePath: reading.exePath,
    dependencies: reading.dependencies,
    previous,
    state: reading.state,
    at,
  };
}

export async function startServiceMonitor(deps: ServiceMonitorDeps): Promise<ServiceMonitor> {
  const { config, clock, connections } = deps;
  const settings = config.serviceMonitor;
  const logger = deps.logger.child("service-monitor");
  const reader = deps.reader ?? createScServiceStateReader({ timeoutMs: settings.timeoutSeconds * 1000 });
  const writesTo = serviceMonitorDestinations(config);
  const { destinations, atShutdown: destinationsAtShutdown } = startMonitorDestinations(
    "service-monitor",
    writesTo,
    { config, clock, connections, logger },
  );
  const watch = createServiceWatch();
  const services = watchedServices(config);
  const statuses: WatchedServiceStatus[] = services.map((watched) => ({
    ...watched,
    displayName: undefined,
    state: undefined,
    stateNum: undefined,
    since: undefined,
    lastReadAt: undefined,
    lastError: undefined,
  }));
  const metrics = declareServiceMonitorMetrics(deps.metrics, () =>
    statuses.flatMap(({ host, service, stateNum }) =>
      stateNum === undefined ? [] : [{ host, service, stateNum }],
    ),
  );
  let polls = 0;
  let lastPollAt: string | undefined;
  const topics = settings.sendToMQTT;

  /** The records and alert of one reading's meaning; the status entry is brought up to date. */
  async function handle(index: number, reading: ServiceReading, outcome: ServiceWatchOutcome, at: string) {
    const status = statuses[index] as WatchedServiceStatus;
    const watched = services[index] as WatchedService;
    const labels = { host: watched.host, service: watched.service };
    status.lastReadAt = at;
    if (!reading.ok) {
      metrics.failed(watched.host, watched.service, reading.failure);
      status.lastError = { at, failure: reading.failure, reason: reading.reason };
      if (outcome.kind === "failed" && outcome.newFailure)
        logger.warn("a watched Windows service could not be read; its last known state stays until it can", {
          ...labels,
          failure: reading.failure,
          reason: reading.reason,
        });
      return;
    }
    if (status.lastError !== undefined) logger.info("a watched Windows service can be read again", labels);
    status.lastError = undefined;
    status.displayName = reading.displayName;
    status.state = reading.state;
    status.stateNum = reading.stateNum;
    const points: Point[] = [];
    const messages: BrokerMessage[] = [];
    if (outcome.kind === "baseline") {
      status.since = at;
      logger.info("a watched Windows service's first reading is its baseline", {
        ...labels,
        state: reading.state,
      });
      points.push(serviceStatePoint(watched, reading, settings.timeseriesdb.tag.static));
      messages.push(serviceStatusMessage(topics.serviceStatusTopic, watched, reading));
    } else if (outcome.kind === "change") {
      status.since = at;
      metrics.changed(watched.host, watched.service, outcome.change);
      const line = `Windows service ${watched.friendlyName} on ${watched.host}: ${outcome.previous} → ${outcome.state}`;
      (outcome.state === "RUNNING" ? logger.info : logger.warn).call(logger, line, labels);
      points.push(serviceStatePoint(watched, reading, settings.timeseriesdb.tag.static));
      const root = outcome.state === "RUNNING" ? topics.serviceRunningTopic : topics.serviceStoppedTopic;
      messages.push(serviceChangeMessage(root, watched, reading, outcome.previous));
      messages.push(serviceStatusMessage(topics.serviceStatusTopic, watched, reading));
      await deps.alerts?.(alertOf(watched, reading, outcome.previous, outcome.change, at));
    }
    await Promise.all([destinations.writePoints(points), destinations.writeMessages(messages)]);
  }

  /** One host's services, one after another. */
  async function pollHost(host: string, at: string): Promise<void> {
    for (const [index, watched] of services.entries()) {
      if (watched.host !== host) continue;
      const reading = await reader.read(watched.host, watched.service);
      await handle(index, reading, watch.observe(watched.host, watched.service, reading), at);
    }
  }

  async function poll(): Promise<void> {
    const at = new Date(clock.now()).toISOString();
    await Promise.all([...new Set(services.map((each) => each.host))].map((host) => pollHost(host, at)));
    polls += 1;
    lastPollAt = at;
  }

  logger.info("Windows service monitor started", {
    frequency: settings.frequency,
    services: services.length,
  });
  const timer = startRecurringTimer({
    what: "Windows service monitor poll",
    recurrence: parseRecurrence(settings.frequency),
    runAtStart: true,
    run: poll,
    clock,
    logger,
  });
  return {
    status: () => ({ polls, lastPollAt, services: statuses.map((each) => ({ ...each })) }),
    async stop() {
      await timer.stop();
      await destinationsAtShutdown.stop();
    },
  };
}

/** The Windows service monitor as an agent part; its services on the status page under `serviceMonitor`. */
export const serviceMonitorPart: WritingAgentPart = {
  name: "service-monitor",
  enabled: (config) => config.serviceMonitor.enable,
  writes: true,
  async start(deps) {
    const monitor = await startServiceMonitor({ ...deps, alerts: deps.alerts.dispatch });
    deps.status.set("serviceMonitor", "monitor", () => monitor.status());
    for (const kind of SERVICE_STATE_ALERT_KINDS)
      for (const destination of deps.alerts.destinations.filter((each) => each.handles(kind))) {
        const key = totalsKey(destination.name, kind);
        deps.status.set("alertDestinations", key, () => deps.alerts.totals(key));
      }
    return monitor;
  },
};
