/**
 * `steward_task_events_total{kind,outcome}`: every datagram the task-event listener processed is
 * counted `received` under its kind (`unknown` when the prefix is not a task prefix), then once
 * more under what became of it: `processed` (its alert was made and dispatched), `duplicate`
 * (the same execution and kind was seen within the window), `malformed`, `unknown_marker`,
 * `ignored` (an engine reload-failed datagram; an aborted run of a task that is not a reload),
 * `unresolved` (a distribute run whose result was not final), `unknown_task` (the repository
 * answered that the task does not exist: no alert was sent). `enrichment_failed` counts, among
 * the processed ones, those sent with a lookup that failed (its part "not available").
 */
import type { MetricsRegistry } from "../ports.ts";

export const TASK_EVENT_OUTCOMES = [
  "received",
  "processed",
  "duplicate",
  "malformed",
  "unknown_marker",
  "ignored",
  "unresolved",
  "unknown_task",
  "enrichment_failed",
] as const;

export type TaskEventOutcome = (typeof TASK_EVENT_OUTCOMES)[number];

export interface TaskEventCounts {
  record(kind: string, outcome: TaskEventOutcome): void;
  /** `kind.outcome` → count, since start. */
  totals(): Record<string, number>;
}

export function createTaskEventCounts(metrics?: MetricsRegistry): TaskEventCounts {
  // kind \u0001 outcome → count
  const counts = new Map<string, number>();
  metrics?.counter({
    name: "steward_task_events_total",
    help:
      "Task events over UDP per kind and outcome: received, then processed, duplicate, malformed, unknown_marker, " +
      "ignored, unresolved or unknown_task (no such task in the repository: no alert); enrichment_failed: processed with a repository lookup that failed",
    labelNames: ["kind", "outcome"],
    collect: () =>
      [...counts].map(([key, value]) => {
        const [kind = "", outcome = ""] = key.split("\u0001");
        return { labels: { kind, outcome }, value };
      }),
  });
  return {
    record(kind, outcome) {
      const key = `${kind}\u0001${outcome}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    },
    totals: () => Object.fromEntries([...counts].map(([key, value]) => [key.replace("\u0001", "."), value])),
  };
}
