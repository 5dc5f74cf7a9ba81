/**
 * `steward_task_starts_total{source,outcome}`: what became of each task a start named, by where
 * the start came from (`rest`: PUT|POST /v4/reloadtask/{taskId}/start; `broker`: a message on
 * `mqttConfig.taskStartTopic`). One count per task id named and per task a tag or custom property
 * selected:
 *
 * - `started`: the platform accepted the start;
 * - `refused`: the start filter does not allow the task (startTaskFilter);
 * - `unknown`: a well-formed id the platform does not know;
 * - `malformed`: not a task id (a broker message that is not a GUID, too long or not text; an id
 *   in a REST call that is not a GUID);
 * - `withheld`: named by id in a REST call with `allTaskIdsMustExist=true` where another id was
 *   invalid;
 * - `failed`: the platform could not be asked or did not start it (unreachable, timeout, task
 *   disabled); a call whose lookups failed counts every id, tag and custom property it named;
 * - `dropped`: a broker message that found the queue of waiting starts full, or still waiting at
 *   shutdown.
 */
import type { MetricsRegistry } from "../ports.ts";

export const TASK_START_SOURCES = ["rest", "broker"] as const;
export type TaskStartSource = (typeof TASK_START_SOURCES)[number];

export const TASK_START_OUTCOMES = [
  "started",
  "refused",
  "unknown",
  "malformed",
  "withheld",
  "failed",
  "dropped",
] as const;
export type TaskStartOutcome = (typeof TASK_START_OUTCOMES)[number];

export interface TaskStartCounts {
  record(source: TaskStartSource, outcome: TaskStartOutcome, count?: number): void;
  /** `source.outcome` → count, since start. */
  totals(): Record<string, number>;
}

export function createTaskStartCounts(metrics?: MetricsRegistry): TaskStartCounts {
  const counts = new Map<string, number>();
  const key = (source: string, outcome: string) => `${source}.${outcome}`;
  metrics?.counter({
    name: "steward_task_starts_total",
    help:
      "Tasks named or selected by task starts, per source (rest, broker) and outcome: started, refused (start filter), " +
      "unknown, malformed, withheld (allTaskIdsMustExist), failed (platform), dropped (broker queue full or shutdown)",
    labelNames: ["source", "outcome"],
    collect: () =>
      [...counts].map(([name, value]) => {
        const [source = "", outcome = ""] = name.split(".");
        return { labels: { source, outcome }, value };
      }),
  });
  return {
    record(source, outcome, count = 1) {
      if (count <= 0) return;
      counts.set(key(source, outcome), (counts.get(key(source, outcome)) ?? 0) + count);
    },
    totals: () => Object.fromEntries(counts),
  };
}
