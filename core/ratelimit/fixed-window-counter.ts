/**
 * A synchronous, in-memory fixed-window counter for hot paths (a UDP socket admits tens of
 * thousands of datagrams a second; the in-process audit queue could use it too). It applies the
 * window rule of fixed-window-limiter.ts (windows of `windowMs` aligned to the Unix epoch) without
 * a store round trip or a promise per hit, so there is one fixed-window rule in Steward and two
 * places to keep the count: a RateLimitStore shared between instances, or this object inside one
 * process.
 *
 * Only admitted hits are counted: once `limit` hits are in, everything is refused until the
 * next window starts (refused hits would not change that answer, so they are not stored).
 */

import { RATE_LIMIT_WINDOW_MS } from "./fixed-window-limiter.ts";

export interface FixedWindowCounterOptions {
  limit: number;
  windowMs?: number;
}

export interface FixedWindowCounter {
  /** Counts one hit at `nowMs` if the window still has room; false when the limit is reached. */
  tryTake(nowMs: number): boolean;
  /** Hits admitted in the window containing `nowMs` (0 once that window is over). */
  count(nowMs: number): number;
  /**
   * The current window's admitted hits as a per-minute rate (Butler SOS's
   * `rateLimitCurrent`). Elapsed time is counted from at least one second so that the first
   * hits of a window do not read as an absurd rate.
   */
  ratePerMinute(nowMs: number): number;
}

const MIN_ELAPSED_MS = 1000;

export function createFixedWindowCounter(options: FixedWindowCounterOptions): FixedWindowCounter {
  const windowMs = options.windowMs ?? RATE_LIMIT_WINDOW_MS;
  const limit = options.limit;
  let windowStartMs = Number.NEGATIVE_INFINITY;
  let admitted = 0;

  const startOf = (nowMs: number) => nowMs - (nowMs % windowMs);
  const inWindow = (nowMs: number) => nowMs - windowStartMs < windowMs && nowMs >= windowStartMs;

  return {
    tryTake(nowMs) {
      if (!inWindow(nowMs)) {
        windowStartMs = startOf(nowMs);
        admitted = 0;
      }
      if (admitted >= limit) return false;
      admitted += 1;
      return true;
    },
    count(nowMs) {
      return inWindow(nowMs) ? admitted : 0;
    },
    ratePerMinute(nowMs) {
      if (!inWindow(nowMs)) return 0;
      return (admitted / Math.max(nowMs - windowStartMs, MIN_ELAPSED_MS)) * 60_000;
    },
  };
}
