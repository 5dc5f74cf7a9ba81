/**
 * Where the licence monitor writes, worked out here once for the monitor itself and for the broker
 * connection (which connects only when some part publishes): the section's own switch AND the
 * destination's master switch, as for every part, so that turning a destination off at the top
 * turns it off for the licence monitor too.
 */
import type { Config } from "./schema/config.ts";

export interface LicenseMonitorDestinations {
  readonly timeseriesdb: boolean;
  readonly mqtt: boolean;
}

export function licenseMonitorDestinations(
  config: Pick<Config, "licenseMonitor" | "timeseriesdbConfig" | "mqttConfig">,
): LicenseMonitorDestinations {
  const section = config.licenseMonitor;
  return {
    timeseriesdb: section.enable && config.timeseriesdbConfig.enable && section.timeseriesdb.enable,
    mqtt: section.enable && config.mqttConfig.enable && section.sendToMQTT.enable,
  };
}
