/**
 * Lets one log line per key through per interval (a minute by default) and counts what it held
 * back, so a destination that keeps failing is reported once a minute with how often it failed,
 * instead of flooding the log or going quiet. Keys are destination names: a small, fixed set.
 */
import type { Clock } from "../ports.ts";

export interface LogThrottle {
  /**
   * Records `count` occurrences for `key`. When a line may be logged now, returns the
   * occurrences since the previous line (these included); otherwise undefined.
   */
  admit(key: string, count?: number): number | undefined;
}

export function createLogThrottle(clock: Clock, intervalMs = 60_000): LogThrottle {
  const byKey = new Map<string, { lastLoggedAt: number; held: number }>();
  return {
    admit(key, count = 1) {
      const now = clock.now();
      const state = byKey.get(key);
      if (state === undefined || now - state.lastLoggedAt >= intervalMs) {
        byKey.set(key, { lastLoggedAt: now, held: 0 });
        return (state?.held ?? 0) + count;
      }
      state.held += count;
      return undefined;
    },
  };
}
