/**
 * Switches that this version validates in the configuration but that have no effect on their own
 * (a destination section that no running part writes to). Enabling one must not look like it
 * works: the runner warns once at start, naming each switch.
 */
import { type Config, licenseMonitorDestinations, udpEventsEnabled } from "../../core/config/index.ts";
import { selectedDestinationTypes } from "../../core/destinations/select-destinations.ts";
import { writesCloudRunPoints } from "../../core/qlik-cloud/cloud-run-points.ts";
import { platformPollingEnabled } from "../agent/platform-polling.ts";

const pipelinesOn = (config: Config) => udpEventsEnabled(config) || platformPollingEnabled(config);

/** Some part writes to the time-series DB when its master switch is on. */
const agentWritesSeries = (config: Config) =>
  pipelinesOn(config) ||
  (config.uptimeMonitor.enable && config.uptimeMonitor.storeInTimeseriesdb.serviceMemoryUsage) ||
  (config.errorTracking.enable && config.errorTracking.timeseriesdb.enable) ||
  licenseMonitorDestinations(config).timeseriesdb ||
  writesCloudRunPoints(config);

/**
 * The audit pipeline writes to the time-series DB with `timeseriesdbConfig`'s connection whenever
 * its `timeseriesdb` destination or its queue metrics are selected, whatever the switch says.
 */
const auditWritesSeries = (config: Config) => {
  const audit = config.auditEvents;
  if (!audit.enable) return false;
  return (
    selectedDestinationTypes(audit.destination).includes("timeseriesdb") ||
    audit.queue.queueMetrics.timeseriesdb.enable
  );
};

/** Some part posts metrics or events to the observability platform when its switch is on. */
const agentPostsObs = (config: Config) =>
  pipelinesOn(config) || (config.uptimeMonitor.enable && config.uptimeMonitor.storeObsPlatform.enable);

/** The config paths of enabled switches that no enabled part uses. */
export function enabledSwitchesWithoutEffect(config: Config): string[] {
  const switches: [string, boolean][] = [
    // The switch turns on what the agent sends there. With the audit pipeline writing there too,
    // the section is in use and the operator who switched it on sees data arrive: a line saying
    // the switch has no effect would read as if nothing were written, so there is none.
    [
      "timeseriesdbConfig.enable",
      config.timeseriesdbConfig.enable && !agentWritesSeries(config) && !auditWritesSeries(config),
    ],
    // The REST observability calls use this section's settings whatever the switch says; the
    // switch itself turns on what the agent sends there.
    ["obsPlatform.enable", config.obsPlatform.enable && !agentPostsObs(config)],
  ];
  return switches.filter(([, enabled]) => enabled).map(([path]) => `Service.${path}`);
}
