/**
 * In-process RateLimitStore for the local runtime. Memory is bounded: entries of ended windows
 * are swept at most once per window, and beyond `maxKeys` live keys the oldest key is evicted
 * (that client's count restarts — the price of never growing without bound under a flood of
 * distinct source addresses).
 */

import type { RateLimitStore } from "../../ports.ts";

export interface MemoryRateLimitStoreOptions {
  /** Most keys held at once. Default 100 000 (a few MB). */
  maxKeys?: number;
}

interface Entry {
  windowStartMs: number;
  windowMs: number;
  count: number;
}

export interface MemoryRateLimitStore extends RateLimitStore {
  /** Keys currently held (for tests and metrics). */
  size(): number;
}

export function createMemoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): MemoryRateLimitStore {
  const maxKeys = options.maxKeys ?? 100_000;
  const entries = new Map<string, Entry>();
  let lastSweepWindow = -1;

  function sweep(nowWindowStart: number): void {
    if (nowWindowStart === lastSweepWindow) return;
    lastSweepWindow = nowWindowStart;
    for (const [key, entry] of entries) {
      if (entry.windowStartMs + entry.windowMs <= nowWindowStart) entries.delete(key);
    }
  }

  return {
    async increment(key, windowStartMs, windowMs) {
      sweep(windowStartMs);
      const entry = entries.get(key);
      if (entry !== undefined && entry.windowStartMs === windowStartMs) {
        entry.count += 1;
        return entry.count;
      }
      if (entry !== undefined) entries.delete(key);
      if (entries.size >= maxKeys) {
        const oldest = entries.keys().next();
        if (oldest.done !== true) entries.delete(oldest.value);
      }
      entries.set(key, { windowStartMs, windowMs, count: 1 });
      return 1;
    },
    size: () => entries.size,
  };
}
