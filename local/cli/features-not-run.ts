/**
 * Spec document 3 describes agent features that this version validates in the configuration but
 * does not run yet (heartbeat, uptime monitor, container health check, config UI, error
 * tracking, telemetry).
 * Enabling one must not look like it works: the runner warns once at start, naming each switch.
 */
import type { Config } from "../../core/config/index.ts";
import { platformPollingEnabled } from "../agent/platform-polling.ts";
import { udpEventsEnabled } from "../agent/udp-events.ts";

const agentWrites = (config: Config) => udpEventsEnabled(config) || platformPollingEnabled(config);

/** The config paths of enabled switches whose features this version does not run. */
export function enabledFeaturesNotRun(config: Config): string[] {
  const switches: [string, boolean][] = [
    ["anonTelemetry", config.anonTelemetry],
    ["configVisualisation.enable", config.configVisualisation.enable],
    ["heartbeat.enable", config.heartbeat.enable],
    ["containerHealthCheck.enable", config.containerHealthCheck.enable],
    ["uptimeMonitor.enable", config.uptimeMonitor.enable],
    ["errorTracking.enable", config.errorTracking.enable],
    // The audit writer and the REST observability calls use these sections' settings whatever the
    // switch says; the switch itself turns on what the agent sends there, which today is the UDP
    // events' and the platform polling's data: without either it has no effect.
    ["timeseriesdbConfig.enable", config.timeseriesdbConfig.enable && !agentWrites(config)],
    ["obsPlatform.enable", config.obsPlatform.enable && !agentWrites(config)],
  ];
  return switches.filter(([, enabled]) => enabled).map(([path]) => `Service.${path}`);
}
