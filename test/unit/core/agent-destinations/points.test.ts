import { describe, expect, it } from "vitest";
import {
  createEventDestinations,
  type EventDestinationsOptions,
} from "../../../../core/agent-destinations/create-event-destinations.ts";
import { TimeseriesWriteError } from "../../../../core/destinations/timeseries-write-error.ts";
import {
  booleanField,
  encodePoints,
  floatField,
  integerField,
  type Point,
  stringField,
} from "../../../../core/shared/line-protocol.ts";
import { createAsyncManualClock } from "../../../helpers/async-manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { numberedPoint, numbers, recordingSeries } from "../../../helpers/recording-series.ts";

const range = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => numberedPoint(from + i));

function start(options: Partial<EventDestinationsOptions> = {}) {
  const clock = createAsyncManualClock();
  const logger = recordingLogger();
  const series = recordingSeries();
  const destinations = createEventDestinations({
    maxBatchSize: 3,
    series,
    clock,
    logger,
    maxBufferedPoints: 6,
    maxWaitMs: 2000,
    initialRetryDelayMs: 1000,
    maxRetryDelayMs: 4000,
    ...options,
  });
  const points = () => destinations.stats().timeseriesdb;
  return { clock, logger, series, destinations, points };
}

/** Resolves to true once the promise settled (without waiting for it). */
function tracked(promise: Promise<unknown>) {
  const state = { done: false };
  void promise.finally(() => {
    state.done = true;
  });
  return state;
}

describe("agent destinations: time-series points, batching and waiting", () => {
  it("writes a batch as soon as maxBatchSize points are buffered", async () => {
    const { clock, series, destinations, points } = start();

    await destinations.writePoints(range(0, 7));
    await clock.settle();

    expect(series.requests.map(numbers)).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
    expect(points()).toMatchObject({ buffered: 1, written: 6 });
    await destinations.stop();
  });

  it("writes 1 s after the first buffered point, not before", async () => {
    const { clock, series, destinations } = start();

    await destinations.writePoints(range(0, 1));
    await clock.advance(600);
    await destinations.writePoints(range(1, 2));
    await clock.advance(399);
    expect(series.requests).toHaveLength(0);
    await clock.advance(1);

    expect(series.requests.map(numbers)).toEqual([[0, 1]]);
    await destinations.stop();
  });

  it("makes writePoints wait while the buffer is full, until the database takes a batch", async () => {
    const { clock, series, destinations, points } = start();
    series.failNext.push(new TimeseriesWriteError("answered 503", 503));
    await destinations.writePoints(range(0, 6));

    const waiting = tracked(destinations.writePoints(range(6, 7)));
    await clock.advance(999);
    expect(waiting.done).toBe(false);
    await clock.advance(1);

    expect(waiting.done).toBe(true);
    expect(points()).toMatchObject({ dropped: 0, failedWrites: 1 });
    await destinations.stop();
    expect(numbers(series.points())).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("drops the rest after the bounded wait, counts it and warns once a minute naming the destination", async () => {
    const { clock, logger, series, destinations, points } = start({ maxRetryDelayMs: 1000 });
    series.down = true;
    await destinations.writePoints(range(0, 6));

    const first = tracked(destinations.writePoints(range(6, 10)));
    await clock.advance(1999);
    expect(first.done).toBe(false);
    await clock.advance(1);
    expect(first.done).toBe(true);
    await destinations.writePoints(range(10, 12));
    await clock.advance(60_000);
    await destinations.writePoints(range(12, 13));

    expect(points()).toMatchObject({ dropped: 7, buffered: 6, written: 0 });
    const drops = logger.at("warn").filter((entry) => entry.message.startsWith("destination buffer full"));
    expect(drops.map((entry) => entry.fields)).toEqual([
      { destination: "timeseriesdb", dropped: 4, maxBuffered: 6 },
      { destination: "timeseriesdb", dropped: 3, maxBuffered: 6 },
    ]);
    series.down = false;
    await clock.advance(1000);
    await destinations.stop();
    expect(numbers(series.points())).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("flushes buffered points on stop", async () => {
    const { series, destinations } = start({ maxBatchSize: 100, maxAgeMs: 60_000 });

    await destinations.writePoints(range(0, 4));
    expect(series.requests).toHaveLength(0);
    await destinations.stop();

    expect(series.requests.map(numbers)).toEqual([[0, 1, 2, 3]]);
  });
});

describe("agent destinations: time-series points, outages and refusals", () => {
  it("writes a batch again after an outage, each point exactly once", async () => {
    const { clock, series, destinations, points } = start();
    series.failNext.push(
      new TimeseriesWriteError("no answer", undefined),
      new TimeseriesWriteError("answered 503", 503),
    );

    await destinations.writePoints(range(0, 5));
    await clock.advance(1000);
    await clock.advance(2000);
    await destinations.stop();

    expect(series.attempts.map(numbers)).toEqual([
      [0, 1, 2],
      [0, 1, 2],
      [0, 1, 2],
      [3, 4],
    ]);
    expect(numbers(series.points())).toEqual([0, 1, 2, 3, 4]);
    expect(points()).toEqual({ buffered: 0, written: 5, failedWrites: 2, dropped: 0, rejected: 0 });
  });

  it("counts a batch the database refuses as rejected, logs a preview and never writes it again", async () => {
    const { clock, logger, series, destinations, points } = start();
    series.failNext.push(new TimeseriesWriteError('answered 400: {"error":"field type conflict"}', 400));

    await destinations.writePoints(range(0, 4));
    await clock.advance(30_000);
    await destinations.stop();

    expect(series.attempts.map(numbers)).toEqual([[0, 1, 2], [3]]);
    expect(points()).toEqual({
      buffered: 0,
      written: 1,
      failedWrites: 1,
      dropped: 0,
      rejected: 3,
      refused: { other: 3 },
      lastRefusal: {
        reason: "other",
        at: "2026-03-08T16:46:26.181Z",
        detail: 'answered 400: {"error":"field type conflict"}',
      },
    });
    const refusal = logger.at("error").find((entry) => entry.message.includes("refused"));
    expect(refusal?.fields).toMatchObject({ destination: "timeseriesdb", points: 3 });
    expect(String(refusal?.fields?.preview)).toMatch(/^test,host=h1 n=0i /);
  });

  it("counts only what InfluxDB reports dropped in a partial write as rejected", async () => {
    const { series, destinations, points } = start();
    const answer = '{"error":"partial write: field type conflict dropped=1"}';
    series.failNext.push(
      new TimeseriesWriteError(`answered 400: ${answer}`, 400, {
        answer,
        refusal: { reason: "field_type_conflict", detail: answer, count: 1, lines: [1], restStored: true },
      }),
    );

    await destinations.writePoints(range(0, 3));
    await destinations.stop();

    expect(series.attempts).toHaveLength(1);
    expect(points()).toMatchObject({ written: 2, rejected: 1 });
  });

  it("rejects a point that cannot be encoded on its own and writes the others", async () => {
    const { series, destinations, points } = start();
    const unwritable: Point = { measurement: "test", tags: {}, fields: { x: floatField(Number.NaN) } };

    await destinations.writePoints([numberedPoint(0), unwritable, numberedPoint(1)]);
    await destinations.stop();

    expect(numbers(series.points())).toEqual([0, 1]);
    expect(points()).toMatchObject({ written: 2, rejected: 1 });
  });
});

describe("agent destinations: time-series points, what each write sends", () => {
  it("stamps a point without a time when it is buffered, so a rewrite replaces rather than adds", async () => {
    const { clock, series, destinations } = start();
    const bufferedAt = clock.now();
    series.failNext.push(new TimeseriesWriteError("no answer", undefined));

    await destinations.writePoints([{ measurement: "test", tags: {}, fields: { x: floatField(1) } }]);
    await clock.advance(1000);
    await clock.advance(1000);
    await destinations.stop();

    expect(series.attempts.map((attempt) => attempt[0]?.timestampMs)).toEqual([bufferedAt, bufferedAt]);
  });

  it("ensures the database before the first write and again after a 404", async () => {
    const { clock, series, destinations } = start();
    series.failNext.push(new TimeseriesWriteError("answered 404: database not found", 404));

    await destinations.writePoints(range(0, 3));
    await clock.advance(1000);
    await destinations.writePoints(range(3, 6));
    await destinations.stop();

    expect(series.ensured).toBe(2);
    expect(series.points()).toHaveLength(6);
  });

  it("sends each batch as the body encodePoints makes of its points: escapes, field types, times", async () => {
    const { clock, series, destinations } = start();
    const stampedAt = clock.now();
    const awkward: Point[] = [
      {
        measurement: "log_event",
        tags: { host: "qs-node1", user_full: "LAB\\goran", empty: "", "app name": "Umsatz, Nord=1 📈" },
        fields: {
          message: stringField('say "hi" \\ again\nnext line'),
          duration: floatField(1234.5),
          whole: floatField(3),
          handle: integerField(-42),
          ok: booleanField(false),
        },
        timestampMs: Date.UTC(2026, 10, 24),
      },
      { measurement: "m,1 x", tags: {}, fields: { "a=b c": stringField("ünïcödé") } },
      numberedPoint(7),
    ];

    await destinations.writePoints(awkward);
    await destinations.stop();

    const [first, second, third] = awkward as [Point, Point, Point];
    expect(series.bodies).toEqual([encodePoints([first, { ...second, timestampMs: stampedAt }, third])]);
  });
});
