/**
 * The records of every task run, built when the task-event part starts: the time-series point
 * when the agent's time-series client is there (`timeseriesdbConfig.enable`) and a kind of point
 * is switched on under `taskEvents.timeseriesdb`, and the broker's messages when task events
 * publish (their broker switch and the broker's master switch on), on the process's one broker
 * connection. They record successes too, so they are task events' own, not alert channels; the
 * part sends to them through a dispatcher of their own, counted and shown as the channels are.
 * The time-series record's failed writes and refusals join the destination metrics as
 * `task-events.timeseriesdb`.
 */
import { type AlertDestination, TASK_ALERT_KINDS, type TaskAlert } from "../../../core/alerts/index.ts";
import { taskEventsPublish } from "../../../core/config/index.ts";
import { createMqttTaskDestination } from "../../../core/task-events/mqtt-task-destination.ts";
import { writesTaskPoints } from "../../../core/task-events/task-points.ts";
import { createTimeseriesTaskDestination } from "../../../core/task-events/timeseries-task-destination.ts";
import type { WritingAgentPartDeps } from "../agent-part.ts";

/** The records the configuration switches on: the time-series point first, then the broker's messages. */
export function taskRunRecords(deps: WritingAgentPartDeps): AlertDestination<TaskAlert>[] {
  const { config, connections, clock } = deps;
  const records: AlertDestination<TaskAlert>[] = [];
  const points = config.taskEvents.timeseriesdb;
  const series = connections.series;
  if (series !== undefined && TASK_ALERT_KINDS.some((kind) => writesTaskPoints(kind, points))) {
    const destination = createTimeseriesTaskDestination({ config: points, series, clock });
    connections.addStats(() => ({ "task-events.timeseriesdb": destination.stats() }));
    records.push(destination);
  }
  const broker = connections.broker;
  if (taskEventsPublish(config) && broker !== undefined)
    records.push(createMqttTaskDestination({ config: config.taskEvents.sendToMQTT, broker }));
  return records;
}
