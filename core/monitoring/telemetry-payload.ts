/**
 * The anonymous telemetry document: the version, the platform and architecture, which features are
 * enabled (booleans only: no names, hosts, addresses or counts of anything the user configured) and
 * the random instance id. Nothing else.
 */
import { type Config, logEventsEnabled } from "../config/index.ts";

export interface TelemetryHost {
  readonly platform: string;
  readonly arch: string;
  readonly release: string;
  readonly nodeVersion: string;
  readonly container: boolean;
}

export interface TelemetryPayload {
  readonly service: string;
  readonly version: string;
  readonly instanceId: string;
  readonly platform: string;
  readonly arch: string;
  readonly release: string;
  readonly nodeVersion: string;
  readonly container: boolean;
  readonly features: Readonly<Record<string, boolean>>;
}

export function enabledFeatures(config: Config): Record<string, boolean> {
  const logSources = logEventsEnabled(config);
  return {
    auditEvents: config.auditEvents.enable,
    restServer: config.restServer.enable,
    heartbeat: config.heartbeat.enable,
    containerHealthCheck: config.containerHealthCheck.enable,
    uptimeMonitor: config.uptimeMonitor.enable,
    uptimeMonitorObsPlatform: config.uptimeMonitor.enable && config.uptimeMonitor.storeObsPlatform.enable,
    userEvents: config.userEvents.enable,
    logEvents: logSources,
    eventCount: config.platformEvents.eventCount.enable,
    rejectedEventCount: config.platformEvents.rejectedEventCount.enable,
    categorise: logSources && config.logEvents.categorise.enable,
    enginePerformanceMonitor: logSources && config.logEvents.enginePerformanceMonitor.enable,
    mqtt: config.mqttConfig.enable,
    obsPlatform: config.obsPlatform.enable,
    scrapeEndpoint: config.scrapeEndpoint.enable,
    timeseriesdb: config.timeseriesdbConfig.enable,
    appNames: config.appNames.enableAppNameExtract,
    userSessions: config.userSessions.enableSessionExtract,
    healthPolling: config.serversToMonitor.servers.length > 0,
    errorTracking: config.errorTracking.enable,
    configVisualisation: config.configVisualisation.enable,
  };
}

export function telemetryPayload(
  config: Config,
  host: TelemetryHost,
  identity: { service: string; version: string; instanceId: string },
): TelemetryPayload {
  return {
    ...identity,
    platform: host.platform,
    arch: host.arch,
    release: host.release,
    nodeVersion: host.nodeVersion,
    container: host.container,
    features: enabledFeatures(config),
  };
}
