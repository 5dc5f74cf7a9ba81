/**
 * The sub-millisecond part of an audit event's point time, derived from its eventId.
 *
 * Why: an audit point's identity in InfluxDB is its measurement, tags and time. The eventId is a
 * field (as a tag it would open one series per event, and InfluxDB 1.x refuses every point past
 * its 100,000th tag value by default), so two events of the same user, app and type in the same
 * millisecond would share a point and the later would overwrite the earlier. Adding an offset of
 * 0–999,999 ns taken from the eventId keeps them apart, gives a replayed event (same id, same
 * time) the very point it wrote before, and leaves the event's millisecond untouched: a query at
 * millisecond precision returns the event's own time.
 *
 * FNV-1a (32 bit) over the id's UTF-16 code units, reduced modulo 1,000,000: deterministic
 * across processes and versions, and spread well enough that two distinct events of one series
 * in one millisecond collide with odds of about one in a million. Within one write those odds
 * are not left to chance: `keepTimesApart` moves a point whose time another point of the batch
 * already has to the next free nanosecond of its millisecond, so a batch never loses an event to
 * a collision (2,000 events four to a millisecond collided in about 3 runs of 1,000). Only two
 * colliding events of one series and millisecond written in different batches can still meet.
 */
import type { Point } from "../shared/line-protocol.ts";

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export function eventTimeOffsetNs(eventId: string): number {
  let hash = FNV_OFFSET_BASIS;
  for (let index = 0; index < eventId.length; index += 1) {
    hash ^= eventId.charCodeAt(index);
    hash = Math.imul(hash, FNV_PRIME);
  }
  return (hash >>> 0) % 1_000_000;
}

/**
 * The points with no two at the same time (millisecond and nanosecond offset): a point whose time
 * an earlier one of the list has moves to the next free nanosecond of its millisecond. Points of
 * different series are moved too: a nanosecond later is harmless, and the series need not be
 * compared. Deterministic for a list in the same order, so a batch written again writes the same
 * points.
 */
export function keepTimesApart<T extends { readonly point: Point }>(entries: readonly T[]): T[] {
  const taken = new Map<number, Set<number>>();
  return entries.map((entry) => {
    const { timestampMs, subMsNs = 0 } = entry.point;
    if (timestampMs === undefined) return entry;
    let used = taken.get(timestampMs);
    if (used === undefined) {
      used = new Set();
      taken.set(timestampMs, used);
    }
    let ns = subMsNs;
    while (used.has(ns) && used.size < 1_000_000) ns = (ns + 1) % 1_000_000;
    used.add(ns);
    return ns === subMsNs ? entry : { ...entry, point: { ...entry.point, subMsNs: ns } };
  });
}
