/**
 * Where the alert of a task run goes: to the records of every run (the time-series point and the
 * broker's messages, this module's own destinations, which record successes too) and to the
 * alert channels (the alerts part's dispatch), all at once. The answers come in that order,
 * records first, as the INFO line of a failed run and the last events on the status page name
 * them.
 */
import type { DispatchAlert, TaskAlert } from "../alerts/index.ts";

export function dispatchTaskRun(
  records: DispatchAlert<TaskAlert>,
  alerts: DispatchAlert<TaskAlert>,
): DispatchAlert<TaskAlert> {
  return async (alert) => {
    const [recorded, alerted] = await Promise.all([records(alert), alerts(alert)]);
    return { ...recorded, ...alerted };
  };
}
