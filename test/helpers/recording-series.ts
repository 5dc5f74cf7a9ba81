/**
 * A TimeseriesClient that keeps every request it accepted and fails the next attempts with the
 * errors a test queues (or every attempt while `down`), for batching and retry tests. A request
 * of encoded lines (`writeLines`) is parsed back into points, as InfluxDB would read it, and its
 * body kept as text.
 */

import { TimeseriesWriteError } from "../../core/destinations/timeseries-write-error.ts";
import type { TimeseriesClient } from "../../core/ports.ts";
import type { FieldValue, Point } from "../../core/shared/line-protocol.ts";
import { integerField } from "../../core/shared/line-protocol.ts";
import { type ParsedPoint, parseLineProtocol } from "./line-protocol-parser.ts";

export interface RecordingSeries extends TimeseriesClient {
  /** Accepted requests, in order. */
  requests: Point[][];
  /** Every write attempt, accepted or not. */
  attempts: Point[][];
  ensured: number;
  /** Errors thrown by the next write attempts, first first. */
  failNext: unknown[];
  /** While true every write fails as an unreachable server would. */
  down: boolean;
  /** The body of every `writeLines` attempt, as text. */
  bodies: string[];
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
    bodies: [],
    async write(points) {
      series.attempts.push([...points]);
      const failure = series.failNext.shift();
      if (failure !== undefined) throw failure;
      if (series.down) throw new TimeseriesWriteError("POST /write failed: no answer", undefined);
      series.requests.push([...points]);
    },
    async writeLines(body) {
      const text = Buffer.from(body).toString("utf8");
      series.bodies.push(text);
      await series.write(parseLineProtocol(text).map(pointOf));
    },
    points: () => series.requests.flat(),
  };
  return series;
}

/** A parsed line as the Point it encodes (tags written empty are absent from the line). */
export function pointOf(parsed: ParsedPoint): Point {
  const fields: Record<string, FieldValue> = {};
  for (const [name, field] of Object.entries(parsed.fields)) {
    fields[name] = { kind: field.type, value: field.value } as FieldValue;
  }
  return {
    measurement: parsed.measurement,
    tags: parsed.tags,
    fields,
    ...(parsed.timestamp === undefined ? {} : { timestampMs: parsed.timestamp }),
    ...(parsed.subMsNs === undefined ? {} : { subMsNs: parsed.subMsNs }),
  };
}

/** A distinct point: measurement `test`, field `n` = n, time = base + n. */
export function numberedPoint(n: number, base = Date.UTC(2026, 0, 1)): Point {
  return { measurement: "test", tags: { host: "h1" }, fields: { n: integerField(n) }, timestampMs: base + n };
}

export const numbers = (points: readonly Point[]) =>
  points.map((point) => (point.fields.n as { value: number } | undefined)?.value);
