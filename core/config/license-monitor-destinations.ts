/**
 * Where the licence monitor and the Windows service monitor write, worked out here once for the
 * monitors themselves and for the broker connection (which connects only when some part
 * publishes): the section's own switch AND the destination's master switch, as for every part, so
 * that turning a destination off at the top turns it off for the monitors too.
 */
import type { Config } from "./schema/config.ts";

export interface LicenseMonitorDestinations {
  readonly timeseriesdb: boolean;
  readonly mqtt: boolean;
}

type Monitor = "licenseMonitor" | "serviceMonitor";

function monitorDestinations<M extends Monitor>(
  config: Pick<Config, M | "timeseriesdbConfig" | "mqttConfig">,
  monitor: M,
): LicenseMonitorDestinations {
  const section = config[monitor] as Config[Monitor];
  return {
    timeseriesdb: section.enable && config.timeseriesdbConfig.enable && section.timeseriesdb.enable,
    mqtt: section.enable && config.mqttConfig.enable && section.sendToMQTT.enable,
  };
}

export function licenseMonitorDestinations(
  config: Pick<Config, "licenseMonitor" | "timeseriesdbConfig" | "mqttConfig">,
): LicenseMonitorDestinations {
  return monitorDestinations(config, "licenseMonitor");
}

export function serviceMonitorDestinations(
  config: Pick<Config, "serviceMonitor" | "timeseriesdbConfig" | "mqttConfig">,
): LicenseMonitorDestinations {
  return monitorDestinations(config, "serviceMonitor");
}
