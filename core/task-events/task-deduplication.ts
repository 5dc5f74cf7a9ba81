/**
 * De-duplication of task events by (execution id, kind): when the appender runs on several nodes,
 * or two appenders match one log line, the same execution is reported more than once, and each
 * copy would otherwise send its own alerts and write its own point. The first event of an
 * execution and kind within the window is let through; a repeat within it is a duplicate and
 * goes nowhere. A failed run and the success of its retry are different kinds, so both pass.
 *
 * The first event is remembered as soon as it is seen, before its lookups run, so a copy that
 * arrives while the first is still being looked up is a duplicate too. An event without an
 * execution id cannot be told apart from another run, so it always passes.
 *
 * Memory is bounded: entries are kept in arrival order, expired ones are dropped from the front
 * as new ones come, and beyond `maxEntries` the oldest are forgotten first (their repeats, should
 * any come so late, are let through rather than memory growing without end).
 */

export interface TaskDeduplicationOptions {
  readonly windowMs: number;
  /** Most executions remembered; 100,000 by default (a few MB). */
  readonly maxEntries?: number;
}

export interface TaskDeduplication {
  /** True when (executionId, kind) was seen within the window; otherwise remembers it and answers false. */
  isDuplicate(executionId: string, kind: string, nowMs: number): boolean;
  /** Executions remembered now. */
  size(): number;
}

const DEFAULT_MAX_ENTRIES = 100_000;

export function createTaskDeduplication(options: TaskDeduplicationOptions): TaskDeduplication {
  const { windowMs } = options;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  // Insertion order is arrival order: the first entry is always the oldest.
  const seenAt = new Map<string, number>();

  function forgetExpired(nowMs: number): void {
    for (const [key, at] of seenAt) {
      if (nowMs - at < windowMs) break;
      seenAt.delete(key);
    }
  }

  return {
    isDuplicate(executionId, kind, nowMs) {
      if (executionId === "") return false;
      forgetExpired(nowMs);
      const key = `${executionId}|${kind}`;
      const at = seenAt.get(key);
      if (at !== undefined && nowMs - at < windowMs) return true;
      seenAt.set(key, nowMs);
      if (seenAt.size > maxEntries) {
        const oldest = seenAt.keys().next();
        if (oldest.done !== true) seenAt.delete(oldest.value);
      }
      return false;
    },
    size: () => seenAt.size,
  };
}
