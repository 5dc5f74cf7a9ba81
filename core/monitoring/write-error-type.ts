/**
 * The error type of a failed write to one of the agent's destinations: `INFLUXDB_V<n>_WRITE` for
 * the time-series DB of version n, `MQTT_PUBLISH` for the broker and `NEW_RELIC_POST` for the
 * observability platform (Butler SOS's type names: they are the data contract of the error
 * measurement, as the `qs_*` metric names are).
 */
export function writeErrorType(destination: string, timeseriesVersion: number): string {
  if (destination === "timeseriesdb") return `INFLUXDB_V${timeseriesVersion}_WRITE`;
  if (destination === "mqtt") return "MQTT_PUBLISH";
  if (destination.startsWith("obs-platform")) return "NEW_RELIC_POST";
  return `${destination.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_WRITE`;
}
