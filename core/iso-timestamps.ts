/**
 * ISO 8601 timestamps of a Clock's `now()`, formatted once per millisecond: a busy listener
 * stamps many requests within the same millisecond, and `Date#toISOString` is among the costlier
 * steps of an accepted request.
 */

import type { Clock } from "./ports.ts";

export function createIsoTimestamps(clock: Clock): () => string {
  let lastMs = Number.NaN;
  let lastText = "";
  return function isoNow() {
    const ms = clock.now();
    if (ms !== lastMs) {
      lastMs = ms;
      lastText = new Date(ms).toISOString();
    }
    return lastText;
  };
}
