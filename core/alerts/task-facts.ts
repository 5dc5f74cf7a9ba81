/**
 * What a task alert's basic chat message shows, in order, for Teams and Slack alike: the facts
 * (task, app, status, node, start and end in the zone of the local times, duration, execution)
 * and the links to the management console, the hub and the app.
 */
import type { TemplateFields } from "../task-events/template-fields.ts";

export function taskFacts(fields: TemplateFields): [string, string][] {
  const { hours, minutes, seconds } = fields.executionDuration;
  return [
    ["Task", fields.taskName],
    ["App", fields.appName],
    ["Status", fields.executionStatusText],
    ["Node", fields.executingNodeName],
    [`Started (${fields.localTimeZone})`, fields.executionStartTime.startTimeLocal1 ?? "-"],
    [`Ended (${fields.localTimeZone})`, fields.executionStopTime.stopTimeLocal1 ?? "-"],
    ["Duration", `${hours} h ${minutes} min ${seconds} s`],
    ["Execution id", fields.executionId],
  ];
}

export function taskLinks(fields: TemplateFields): [string, string][] {
  return [
    ["Open QMC", fields.qlikSenseQMC],
    ["Open Hub", fields.qlikSenseHub],
    ["Open app", fields.appUrl],
  ];
}
