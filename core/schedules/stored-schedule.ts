/** Shape check for schedules read back from a store (files can be edited by hand). */
import * as v from "valibot";
import type { Schedule } from "../ports.ts";

const state = v.picklist(["started", "stopped"]);

export const StoredScheduleSchema = v.object({
  id: v.pipe(v.string(), v.minLength(1)),
  created: v.string(),
  name: v.string(),
  cronSchedule: v.string(),
  timezone: v.string(),
  platformTaskId: v.string(),
  startupState: state,
  tags: v.array(v.string()),
  lastKnownState: state,
});

/** Returns the schedule with exactly the known members, or a readable problem. */
export function readStoredSchedule(
  value: unknown,
): { ok: true; schedule: Schedule } | { ok: false; problem: string } {
  const result = v.safeParse(StoredScheduleSchema, value);
  if (result.success) return { ok: true, schedule: result.output };
  return { ok: false, problem: v.summarize(result.issues) };
}
