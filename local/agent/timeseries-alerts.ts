/**
 * The time-series destination of task alerts when the configuration asks for it: the agent's
 * time-series client is there (`timeseriesdbConfig.enable`) and at least one kind of point is
 * switched on under `taskEvents.timeseriesdb`. Its failed writes and refusals join the
 * destination metrics as `task-events.timeseriesdb`.
 */

import { writesTaskPoints } from "../../core/alerts/task-points.ts";
import { createTimeseriesTaskDestination } from "../../core/alerts/timeseries-task-destination.ts";
import { ALERT_KINDS } from "../../core/task-events/task-kinds.ts";
import type { AlertDestinationFactory } from "./alert-destinations.ts";

export const timeseriesAlerts: AlertDestinationFactory = ({ config, connections, clock }) => {
  const points = config.taskEvents.timeseriesdb;
  const series = connections.series;
  if (series === undefined || !ALERT_KINDS.some((kind) => writesTaskPoints(kind, points))) return undefined;
  const destination = createTimeseriesTaskDestination({ config: points, series, clock });
  connections.addStats(() => ({ "task-events.timeseriesdb": destination.stats() }));
  return destination;
};
