/**
 * What the REST API's task start and the broker's start topic share, made once per process: the
 * start filter (`startTaskFilter`) and the counts (`steward_task_starts_total{source,outcome}`), so
 * that one rule decides every start and one metric counts them all, whichever way they came.
 * Made only when something starts tasks, so the metric is not declared for nothing.
 */
import type { Config } from "../core/config/index.ts";
import {
  allowsNothing,
  createStartTaskFilter,
  createTaskStartCounts,
  type StartTaskFilter,
  type TaskStartCounts,
} from "../core/platform/index.ts";
import type { Logger, MetricsRegistry } from "../core/ports.ts";

export interface TaskStartRules {
  readonly filter: StartTaskFilter;
  readonly counts: TaskStartCounts;
}

/** True when tasks are started from the broker: its connection on and a start topic set. */
export function startsTasksFromBroker(config: Config): boolean {
  return config.mqttConfig.enable && config.mqttConfig.taskStartTopic !== "";
}

/** True when the REST API serves the task start (it needs the platform). */
function restStartsTasks(config: Config): boolean {
  const rest = config.restServer;
  return rest.enable && rest.endpointsEnable.reloadTaskStart && config.platform.host !== "";
}

/** The shared filter and counts, or undefined when nothing starts tasks. */
export function taskStartRules(
  config: Config,
  metrics: MetricsRegistry,
  logger: Logger,
): TaskStartRules | undefined {
  if (!restStartsTasks(config) && !startsTasksFromBroker(config)) return undefined;
  if (allowsNothing(config.startTaskFilter)) {
    logger.warn(
      "startTaskFilter is on and lists no task id, tag or custom property: every task start is refused",
    );
  }
  return { filter: createStartTaskFilter(config.startTaskFilter), counts: createTaskStartCounts(metrics) };
}
