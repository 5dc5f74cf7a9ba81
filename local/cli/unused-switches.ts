/**
 * Switches that this version validates in the configuration but that have no effect on their own
 * (a destination section that no running part writes to). Enabling one must not look like it
 * works: the runner warns once at start, naming each switch.
 */
import type { Config } from "../../core/config/index.ts";
import { platformPollingEnabled } from "../agent/platform-polling.ts";
import { udpEventsEnabled } from "../agent/udp-events.ts";

const pipelinesOn = (config: Config) => udpEventsEnabled(config) || platformPollingEnabled(config);

/** Some part writes to the time-series DB when its master switch is on. */
const agentWritesSeries = (config: Config) =>
  pipelinesOn(config) ||
  (config.uptimeMonitor.enable && config.uptimeMonitor.storeInTimeseriesdb.serviceMemoryUsage) ||
  (config.errorTracking.enable && config.errorTracking.timeseriesdb.enable);

/** Some part posts metrics or events to the observability platform when its switch is on. */
const agentPostsObs = (config: Config) =>
  pipelinesOn(config) || (config.uptimeMonitor.enable && config.uptimeMonitor.storeObsPlatform.enable);

/** The config paths of enabled switches that no enabled part uses. */
export function enabledSwitchesWithoutEffect(config: Config): string[] {
  const switches: [string, boolean][] = [
    // The audit writer and the REST observability calls use these sections' settings whatever the
    // switch says; the switch itself turns on what the agent sends there: without a part that
    // sends there it has no effect.
    ["timeseriesdbConfig.enable", config.timeseriesdbConfig.enable && !agentWritesSeries(config)],
    ["obsPlatform.enable", config.obsPlatform.enable && !agentPostsObs(config)],
  ];
  return switches.filter(([, enabled]) => enabled).map(([path]) => `Service.${path}`);
}
