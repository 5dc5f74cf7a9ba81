/**
 * Per-key log throttling for the UDP pipeline's drop and rejection messages: the first event of
 * a key (a sender address, a drop reason) in each interval deserves a WARN; later ones within
 * the interval are only worth a DEBUG line, and the next WARN says how many were held back.
 * A flood must not flood the log (reference agent §3.2, §14 item 2: every drop is visible, but
 * once a minute).
 *
 * Keys seen more than an interval ago are pruned at most once per interval, and at most
 * `maxKeys` keys are tracked, so spoofed sender addresses cannot grow memory without bound;
 * a key beyond that limit is treated as held back.
 */

export interface LogThrottleOptions {
  intervalMs?: number;
  maxKeys?: number;
}

export interface LogThrottle {
  /**
   * `undefined` when the event should be held back (log at DEBUG at most); otherwise the time
   * has come for a WARN, and the number is how many events of this key were held back since the
   * previous one.
   */
  admit(key: string, nowMs: number): number | undefined;
}

interface KeyState {
  lastWarnAtMs: number;
  heldBack: number;
}

export const LOG_THROTTLE_INTERVAL_MS = 60_000;
const DEFAULT_MAX_KEYS = 10_000;

export function createLogThrottle(options: LogThrottleOptions = {}): LogThrottle {
  const intervalMs = options.intervalMs ?? LOG_THROTTLE_INTERVAL_MS;
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  const keys = new Map<string, KeyState>();
  let lastPruneAtMs = Number.NEGATIVE_INFINITY;

  function prune(nowMs: number): void {
    lastPruneAtMs = nowMs;
    for (const [key, state] of keys) if (nowMs - state.lastWarnAtMs >= intervalMs) keys.delete(key);
  }

  return {
    admit(key, nowMs) {
      const state = keys.get(key);
      if (state !== undefined) {
        if (nowMs - state.lastWarnAtMs < intervalMs) {
          state.heldBack += 1;
          return undefined;
        }
        const heldBack = state.heldBack;
        state.lastWarnAtMs = nowMs;
        state.heldBack = 0;
        return heldBack;
      }
      if (nowMs - lastPruneAtMs >= intervalMs) prune(nowMs);
      if (keys.size >= maxKeys) return undefined;
      keys.set(key, { lastWarnAtMs: nowMs, heldBack: 0 });
      return 0;
    },
  };
}
