/**
 * Positions in the durable audit log. A position is a byte offset into the log as if it were one
 * endless file; the log is stored as segment files, each beginning at its base position
 * (segment-files.ts names them after it). A destination's cursor is the position of the
 * first record it has not yet written. A segment may be deleted once every selected
 * destination's cursor lies at or past its end, i.e. at or past the start of the next segment.
 */

/** The index in `bases` (ascending) of the segment holding `position`; -1 before the first. */
export function segmentIndexOf(bases: readonly number[], position: number): number {
  let low = 0;
  let high = bases.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((bases[middle] as number) <= position) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/**
 * A cursor as the log can use it: never before the oldest kept byte (that part was deleted, so
 * every destination had written it) and never past the end (a cursor from a damaged file).
 */
export function clampCursor(cursor: number | undefined, start: number, end: number): number {
  if (cursor === undefined || !Number.isSafeInteger(cursor)) return start;
  return Math.min(Math.max(cursor, start), end);
}

/** The cursor furthest behind, with its destination's name; undefined without destinations. */
export function slowestCursor(
  cursors: ReadonlyMap<string, number>,
): { destination: string; position: number } | undefined {
  let slowest: { destination: string; position: number } | undefined;
  for (const [destination, position] of cursors) {
    if (slowest === undefined || position < slowest.position) slowest = { destination, position };
  }
  return slowest;
}

/**
 * How many of the oldest segments every destination has written past: each of them ends (the
 * next base) at or before `upTo`. The active (last) segment is never counted.
 */
export function deletableSegmentCount(bases: readonly number[], upTo: number): number {
  let count = 0;
  while (count < bases.length - 1 && (bases[count + 1] as number) <= upTo) count += 1;
  return count;
}

/** Bytes the log holds on disk: from the oldest kept segment's start to the end. */
export function bytesOnDisk(bases: readonly number[], end: number): number {
  return bases.length === 0 ? 0 : end - (bases[0] as number);
}
