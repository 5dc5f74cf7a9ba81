/**
 * Fixed-window rate limiting: windows of `windowMs` aligned to the Unix epoch, one counter per key
 * and window in a RateLimitStore, so every instance sharing the store shares the limit. Hits over
 * the limit still count (they do not extend the window: it is fixed).
 */

import type { Clock, RateLimitStore } from "../ports.ts";

export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface FixedWindowLimiterOptions {
  maxPerWindow: number;
  windowMs?: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Hits left in this window after this one (0 when over the limit). */
  remaining: number;
  /** When the window ends, ms since the Unix epoch. */
  resetAtMs: number;
}

export interface FixedWindowLimiter {
  /** Counts one hit for `key` and says whether it is within the limit. */
  hit(key: string): Promise<RateLimitDecision>;
}

export function createFixedWindowLimiter(
  options: FixedWindowLimiterOptions,
  deps: { store: RateLimitStore; clock: Clock },
): FixedWindowLimiter {
  const windowMs = options.windowMs ?? RATE_LIMIT_WINDOW_MS;
  const limit = options.maxPerWindow;
  return {
    async hit(key) {
      const now = deps.clock.now();
      const windowStartMs = now - (now % windowMs);
      const count = await deps.store.increment(key, windowStartMs, windowMs);
      return {
        allowed: count <= limit,
        limit,
        remaining: Math.max(0, limit - count),
        resetAtMs: windowStartMs + windowMs,
      };
    },
  };
}
