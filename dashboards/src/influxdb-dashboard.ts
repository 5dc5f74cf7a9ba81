/** The InfluxDB 1.x (InfluxQL) dashboard: the platform and Steward, from what Steward writes. */
import { assembleDashboard } from "./assemble-dashboard.ts";
import type { DataSourceInput, ImportableDashboard } from "./grafana-import.ts";
import { eventRows } from "./influxdb-event-rows.ts";
import { licenceRows } from "./influxdb-licence-rows.ts";
import { serverRows } from "./influxdb-platform-rows.ts";
import { stewardRows } from "./influxdb-steward-rows.ts";
import { taskRows } from "./influxdb-task-rows.ts";
import { influxdbVariables } from "./influxdb-variables.ts";

export const INFLUXDB_INPUT: DataSourceInput = {
  name: "DS_INFLUXDB",
  label: "InfluxDB (InfluxQL)",
  pluginId: "influxdb",
  pluginName: "InfluxDB",
};

export function influxdbDashboard(): ImportableDashboard {
  return assembleDashboard({
    uid: "steward-qlik-sense-influxdb",
    title: "Qlik Sense operations (Steward, InfluxDB)",
    description:
      "Engine health, sessions, licences, reload tasks, user and log events, engine performance, UDP intake, audit events and Steward itself, from what Steward writes to InfluxDB 1.x.",
    input: INFLUXDB_INPUT,
    variables: influxdbVariables(),
    rows: [...serverRows(), ...licenceRows(), ...taskRows(), ...eventRows(), ...stewardRows()],
  });
}
