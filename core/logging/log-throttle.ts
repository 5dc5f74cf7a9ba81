/**
 * One log line per key per interval (a minute by default), with the count of what it stands for: a
 * destination that keeps failing, a drop reason, a sender of malformed or refused datagrams is
 * reported once a minute with how often it happened, instead of flooding the log or going quiet
 * (every drop visible, but once a minute).
 *
 * Memory stays bounded when keys come from the network (spoofed sender addresses): keys whose
 * interval is over and that hold nothing back are pruned at most once per interval, and beyond
 * `maxKeys` the least recently logged tenth is forgotten.
 */

export interface LogThrottleOptions {
  intervalMs?: number;
  maxKeys?: number;
}

export interface LogThrottle {
  /**
   * Records `count` occurrences of `key` at `nowMs`. When a line may be written now, returns how
   * many occurrences it stands for (these and those held back since the previous line);
   * otherwise undefined (log at DEBUG at most).
   */
  admit(key: string, nowMs: number, count?: number): number | undefined;
}

export const LOG_THROTTLE_INTERVAL_MS = 60_000;
const DEFAULT_MAX_KEYS = 10_000;

interface KeyState {
  loggedAtMs: number;
  held: number;
}

export function createLogThrottle(options: LogThrottleOptions = {}): LogThrottle {
  const intervalMs = options.intervalMs ?? LOG_THROTTLE_INTERVAL_MS;
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  // Insertion order is the order of the last line written, oldest first.
  const keys = new Map<string, KeyState>();
  let prunedAtMs = Number.NEGATIVE_INFINITY;

  function prune(nowMs: number): void {
    prunedAtMs = nowMs;
    for (const [key, state] of keys) {
      if (state.held === 0 && nowMs - state.loggedAtMs >= intervalMs) keys.delete(key);
    }
    let excess = keys.size - Math.floor(maxKeys * 0.9);
    for (const key of keys.keys()) {
      if (excess-- <= 0) break;
      keys.delete(key);
    }
  }

  return {
    admit(key, nowMs, count = 1) {
      const state = keys.get(key);
      if (state !== undefined && nowMs - state.loggedAtMs < intervalMs) {
        state.held += count;
        return undefined;
      }
      if (state === undefined && (keys.size >= maxKeys || nowMs - prunedAtMs >= intervalMs)) prune(nowMs);
      keys.delete(key);
      keys.set(key, { loggedAtMs: nowMs, held: 0 });
      return (state?.held ?? 0) + count;
    },
  };
}
