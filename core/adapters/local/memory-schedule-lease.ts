/**
 * ScheduleLease in memory, for the local file store: one process fires the schedules of its own
 * file, so every occurrence it claims is granted unless its owner already lost it on a shared
 * `claims` map (which only the contract tests share between owners). One entry per schedule: the
 * latest claimed occurrence and its owner.
 */
import type { ScheduleLease } from "../../ports.ts";

export interface MemoryScheduleLeaseOptions {
  owner: string;
  /** Claims shared with other owners (tests); default: this lease's own. */
  claims?: Map<string, { owner: string; dueMs: number }>;
}

export function createMemoryScheduleLease(options: MemoryScheduleLeaseOptions): ScheduleLease {
  const { owner } = options;
  const claims = options.claims ?? new Map<string, { owner: string; dueMs: number }>();
  return {
    async claim(scheduleId, dueMs) {
      const held = claims.get(scheduleId);
      if (held !== undefined && (held.dueMs > dueMs || (held.dueMs === dueMs && held.owner !== owner))) {
        return false;
      }
      claims.set(scheduleId, { owner, dueMs });
      return true;
    },
  };
}
