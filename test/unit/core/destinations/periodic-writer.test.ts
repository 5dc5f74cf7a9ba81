import { describe, expect, it } from "vitest";
import { integerField, type Point } from "../../../../core/destinations/line-protocol.ts";
import { startPeriodicWriter } from "../../../../core/destinations/periodic-writer.ts";
import { TimeseriesWriteError } from "../../../../core/destinations/timeseries-write-error.ts";
import type { PeriodicPoints } from "../../../../core/udp/event-sinks.ts";
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

function start(sources: PeriodicPoints[]) {
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
  });
  return { clock, logger, series, writer };
}

describe("startPeriodicWriter", () => {
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
});
