/**
 * A TimeseriesWriter that keeps every request it accepted and fails the next attempts with the
 * errors a test queues (or every attempt while `down`), for batching and retry tests.
 */
import type { Point } from "../../core/destinations/line-protocol.ts";
import { integerField } from "../../core/destinations/line-protocol.ts";
import { TimeseriesWriteError } from "../../core/destinations/timeseries-write-error.ts";
import type { TimeseriesWriter } from "../../core/ports.ts";

export interface RecordingSeries extends TimeseriesWriter {
  /** Accepted requests, in order. */
  requests: Point[][];
  /** Every write attempt, accepted or not. */
  attempts: Point[][];
  ensured: number;
  /** Errors thrown by the next write attempts, first first. */
  failNext: unknown[];
  /** While true every write fails as an unreachable server would. */
  down: boolean;
  /** Every point of every accepted request. */
  points(): Point[];
}

export function recordingSeries(): RecordingSeries {
  const series: RecordingSeries = {
    requests: [],
    attempts: [],
    ensured: 0,
    failNext: [],
    down: false,
    async ensureDatabase() {
      series.ensured += 1;
    },
    async write(points) {
      series.attempts.push([...points]);
      const failure = series.failNext.shift();
      if (failure !== undefined) throw failure;
      if (series.down) throw new TimeseriesWriteError("POST /write failed: no answer", undefined);
      series.requests.push([...points]);
    },
    points: () => series.requests.flat(),
  };
  return series;
}

/** A distinct point: measurement `test`, field `n` = n, time = base + n. */
export function numberedPoint(n: number, base = Date.UTC(2026, 0, 1)): Point {
  return { measurement: "test", tags: { host: "h1" }, fields: { n: integerField(n) }, timestampMs: base + n };
}

export const numbers = (points: readonly Point[]) =>
  points.map((point) => (point.fields.n as { value: number } | undefined)?.value);
