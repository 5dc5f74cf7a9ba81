import { describe, expect, it } from "vitest";
import { startPeriodicWriter } from "../../../../core/destinations/periodic-writer.ts";
import { TimeseriesWriteError } from "../../../../core/destinations/timeseries-write-error.ts";
import { floatField, integerField, type Point } from "../../../../core/shared/line-protocol.ts";
import type { PeriodicPoints } from "../../../../core/shared/periodic-points.ts";
import { createAsyncManualClock } from "../../../helpers/async-manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { recordingSeries } from "../../../helpers/recording-series.ts";

/** A delta counter as the UDP event counts keep it: reset only by written(). */
function deltaCounter(name: string) {
  let count = 0;
  const source = {
    add(n: number) {
      count += n;
    },
    take(nowMs: number) {
      const taken = count;
      const point: Point = {
        measurement: "event_count",
        tags: { source: name },
        fields: { counter: integerField(taken) },
        timestampMs: nowMs,
      };
      return {
        points: [point],
        written() {
          count -= taken;
        },
      };
    },
  } satisfies PeriodicPoints & Record<string, unknown>;
  return source;
}

const counters = (points: readonly Point[]) =>
  points.map((point) => [point.tags.source, (point.fields.counter as { value: number }).value]);

function start(sources: PeriodicPoints[], stopTimeoutMs?: number) {
  const clock = createAsyncManualClock();
  const logger = recordingLogger();
  const series = recordingSeries();
  const writer = startPeriodicWriter({
    name: "event-counts",
    intervalMs: 10_000,
    sources,
    series,
    clock,
    logger,
    stopTimeoutMs,
  });
  return { clock, logger, series, writer };
}

/** A write that never answers, as to a server that stopped answering. */
function hangWrites(series: ReturnType<typeof recordingSeries>): void {
  series.write = () => new Promise<void>(() => {});
}

/** Tells whether the promise has settled, without waiting for it. */
function tracked(promise: Promise<unknown>) {
  const state = { done: false };
  void promise.finally(() => {
    state.done = true;
  });
  return state;
}

const fieldTypeConflict = () => {
  const answer = '{"error":"partial write: field type conflict: input field \\"counter\\" dropped=1"}';
  return new TimeseriesWriteError(`answered 400: ${answer}`, 400, {
    answer,
    refusal: { reason: "field_type_conflict", detail: answer, count: 1, lines: [0], restStored: true },
  });
};

describe("startPeriodicWriter: writing every interval", () => {
  it("writes the points of every source in one request every interval, not before", async () => {
    const engine = deltaCounter("engine");
    const proxy = deltaCounter("proxy");
    const { clock, series, writer } = start([engine, proxy]);
    engine.add(3);
    proxy.add(1);

    await clock.advance(9_999);
    expect(series.requests).toHaveLength(0);
    await clock.advance(1);

    expect(series.requests.map(counters)).toEqual([
      [
        ["engine", 3],
        ["proxy", 1],
      ],
    ]);
    await writer.stop();
  });

  it("keeps the deltas of a failed write and writes them with the next interval's", async () => {
    const engine = deltaCounter("engine");
    const { clock, series, writer } = start([engine]);
    engine.add(5);
    series.failNext.push(new TimeseriesWriteError("no answer", undefined));

    await clock.advance(10_000);
    engine.add(2);
    await clock.advance(10_000);
    engine.add(1);
    await clock.advance(10_000);

    expect(series.attempts.map(counters)).toEqual([[["engine", 5]], [["engine", 7]], [["engine", 1]]]);
    expect(writer.stats()).toEqual({ writes: 2, failedWrites: 1 });
    await writer.stop();
  });

  it("logs failures at most once a minute, saying how many there were", async () => {
    const { clock, logger, series, writer } = start([deltaCounter("engine")]);
    series.down = true;

    await clock.advance(70_000);

    expect(logger.at("error").map((entry) => entry.fields?.failures)).toEqual([1, 6]);
    await writer.stop();
  });

  it("drops a point the database refuses instead of carrying it into every next interval", async () => {
    const engine = deltaCounter("engine");
    const { clock, logger, series, writer } = start([engine]);
    engine.add(5);
    series.failNext.push(fieldTypeConflict());

    await clock.advance(10_000);
    engine.add(2);
    await clock.advance(10_000);
    await writer.stop();

    // The last write on stop carries nothing of the refused 5 either.
    expect(series.attempts.map(counters)).toEqual([[["engine", 5]], [["engine", 2]], [["engine", 0]]]);
    expect(writer.stats()).toMatchObject({
      writes: 3,
      failedWrites: 0,
      rejected: 1,
      refused: { field_type_conflict: 1 },
      lastRefusal: { reason: "field_type_conflict" },
    });
    const refusals = logger.at("error");
    expect(refusals).toHaveLength(1);
    expect(refusals[0]?.fields).toMatchObject({
      writer: "event-counts",
      reason: "field_type_conflict",
      refused: 1,
      preview: expect.stringMatching(/^event_count,source=engine counter=5i /),
    });
  });

  it("refuses a point that cannot be encoded on its own and writes the others", async () => {
    const engine = deltaCounter("engine");
    const broken: PeriodicPoints = {
      take: (nowMs) => ({
        points: [
          { measurement: "queue", tags: {}, fields: { pct: floatField(Number.NaN) }, timestampMs: nowMs },
        ],
        written() {},
      }),
    };
    const { clock, series, writer } = start([engine, broken]);
    engine.add(3);

    await clock.advance(10_000);
    await writer.stop();

    expect(series.requests.map(counters)).toEqual([[["engine", 3]], [["engine", 0]]]);
    expect(writer.stats()).toMatchObject({ rejected: 2, refused: { unencodable: 2 } });
  });

  it("makes sure the database exists before its first write, and again after a 404", async () => {
    const engine = deltaCounter("engine");
    const { clock, series, writer } = start([engine]);
    engine.add(1);
    series.failNext.push(new TimeseriesWriteError("answered 404: database not found", 404));

    await clock.advance(10_000);
    await clock.advance(10_000);
    await writer.stop();

    expect(series.ensured).toBe(2);
    expect(series.requests.map(counters)).toEqual([[["engine", 1]], [["engine", 0]]]);
  });
});

describe("startPeriodicWriter: stopping", () => {
  it("writes a last time on stop and leaves no timer behind", async () => {
    const engine = deltaCounter("engine");
    const { clock, series, writer } = start([engine]);
    engine.add(4);

    await writer.stop();

    expect(series.requests.map(counters)).toEqual([[["engine", 4]]]);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("gives up the last write after stopTimeoutMs when the database does not answer", async () => {
    const clock = createAsyncManualClock();
    const logger = recordingLogger();
    const hanging = {
      ensureDatabase: async () => {},
      write: () => new Promise<void>(() => {}),
      writeLines: () => Promise.reject(new Error("the periodic writer writes points")),
    };
    const writer = startPeriodicWriter({
      name: "event-counts",
      intervalMs: 10_000,
      sources: [deltaCounter("engine")],
      series: hanging,
      clock,
      logger,
      stopTimeoutMs: 3000,
    });

    const stopping = writer.stop();
    await clock.advance(3000);
    await stopping;

    expect(logger.at("error")).toHaveLength(1);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("bounds the whole stop by stopTimeoutMs, the write in flight included", async () => {
    const engine = deltaCounter("engine");
    const { clock, logger, series, writer } = start([engine], 3000);
    engine.add(4);
    hangWrites(series);
    await clock.advance(10_000); // the interval's write is now in flight, and hangs

    const stopping = tracked(writer.stop());
    await clock.advance(2999);
    expect(stopping.done).toBe(false);
    await clock.advance(1);

    expect(stopping.done).toBe(true);
    expect(logger.at("error").map((entry) => entry.fields)).toEqual([{ writer: "event-counts", points: 1 }]);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("ends a stop at once when abandoned (the shutdown's deadline), writing nothing more", async () => {
    const engine = deltaCounter("engine");
    const { clock, logger, series, writer } = start([engine]);
    engine.add(4);
    hangWrites(series);
    await clock.advance(10_000);

    const stopping = tracked(writer.stop());
    await clock.advance(100);
    writer.abandon();
    await clock.settle();

    expect(stopping.done).toBe(true);
    expect(logger.at("error")).toHaveLength(1);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("says nothing more when the write it gave up on fails afterwards: its points were already named as lost", async () => {
    const engine = deltaCounter("engine");
    const { clock, logger, series, writer } = start([engine]);
    engine.add(4);
    let failWrite: (error: unknown) => void = () => undefined;
    series.write = () =>
      new Promise<void>((_, reject) => {
        failWrite = reject;
      });
    await clock.advance(10_000);

    const stopping = writer.stop();
    writer.abandon();
    await stopping;
    failWrite(new TimeseriesWriteError("no complete answer within 10000 ms", undefined));
    await clock.settle();

    expect(logger.at("error").map((entry) => entry.message)).toEqual([
      "interval counters not written before shutdown; lost",
    ]);
  });
});
