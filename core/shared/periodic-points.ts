import type { Point } from "./line-protocol.ts";

/**
 * Counters written to the time-series DB every interval as deltas (event counts, rejected
 * counts, queue metrics): `take` returns the points of the interval so far, and `written()`
 * resets what they carried once the database accepted them; an unwritten interval is carried
 * into the next one.
 */
export interface PeriodicPoints {
  take(nowMs: number): { points: Point[]; written(): void };
}
