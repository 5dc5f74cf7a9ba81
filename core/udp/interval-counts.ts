/**
 * Taking an interval's counts as deltas (PeriodicPoints), for counters kept in rows by key:
 * `take` turns each row into a point with the counts it holds now, and `written()` (once, however
 * often it is called) subtracts exactly those counts, so what arrives during a write stays for
 * the next one. A row left with no events is dropped, unless a newer row has taken its key.
 */
import type { Point } from "../shared/line-protocol.ts";
import type { PeriodicPoints } from "../shared/periodic-points.ts";

type CountName<Row> = { [K in keyof Row]: Row[K] extends number ? K : never }[keyof Row];

export interface IntervalCountsOptions<Row, Count extends CountName<Row>> {
  /** The number of events first (it decides when a row is empty), then any sums kept beside it. */
  readonly counts: readonly [Count, ...Count[]];
  /** The point of one row; `taken` holds the counts as they were taken. */
  readonly toPoint: (row: Row, taken: Readonly<Record<Count, number>>) => Point;
}

export function takeIntervalCounts<Row extends object, Count extends CountName<Row>>(
  rows: Map<string, Row>,
  { counts, toPoint }: IntervalCountsOptions<Row, Count>,
): ReturnType<PeriodicPoints["take"]> {
  const taken = [...rows].map(([key, row]) => ({ key, row, counts: countsOf(row, counts) }));
  const points = taken.map(({ row, counts: takenCounts }) => toPoint(row, takenCounts));
  let done = false;
  return {
    points,
    written() {
      if (done) return;
      done = true;
      for (const { key, row, counts: takenCounts } of taken) {
        const current = row as Record<Count, number>;
        for (const name of counts) current[name] -= takenCounts[name];
        if (current[counts[0]] <= 0 && rows.get(key) === row) rows.delete(key);
      }
    },
  };
}

function countsOf<Row, Count extends CountName<Row>>(
  row: Row,
  names: readonly Count[],
): Record<Count, number> {
  const counts = {} as Record<Count, number>;
  for (const name of names) counts[name] = row[name] as number;
  return counts;
}
