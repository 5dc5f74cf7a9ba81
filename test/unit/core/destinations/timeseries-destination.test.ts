import { describe, expect, it } from "vitest";
import type { AcceptedEvent } from "../../../../core/audit/accepted-event.ts";
import { DestinationWriteError } from "../../../../core/destinations/destination-writer.ts";
import type { Point } from "../../../../core/destinations/line-protocol.ts";
import { createTimeseriesDestination } from "../../../../core/destinations/timeseries-destination.ts";
import { TimeseriesWriteError } from "../../../../core/destinations/timeseries-write-error.ts";
import type { TimeseriesWriter } from "../../../../core/ports.ts";
import { acceptedEvent } from "../../../helpers/audit-events.ts";

/** Refuses (400) any request holding a point whose appName is "bad"; fails (no answer) while down. */
function seriesSpy() {
  const spy = {
    down: false,
    requests: [] as number[],
    stored: [] as Point[],
    sleeps: [] as number[],
    ensured: 0,
    async ensureDatabase() {
      if (spy.down) throw new TimeseriesWriteError("no answer", undefined);
      spy.ensured += 1;
    },
    async write(points: readonly Point[]) {
      spy.requests.push(points.length);
      if (spy.down) throw new TimeseriesWriteError("no answer", undefined);
      if (points.some((point) => point.tags.appName === "bad"))
        throw new TimeseriesWriteError("bad point", 400);
      spy.stored.push(...points);
    },
    writeLines: () => Promise.reject(new Error("the audit destination writes points")),
  } satisfies TimeseriesWriter & Record<string, unknown>;
  return spy;
}

const events = (n: number, bad: number[] = []): AcceptedEvent[] =>
  Array.from({ length: n }, (_, i) =>
    acceptedEvent({
      payload: { context: { appName: bad.includes(i) ? "bad" : `app${i}` }, event: { objectId: "o" } },
    }),
  );

function destination(spy: ReturnType<typeof seriesSpy>, maxBatchSize: number) {
  return createTimeseriesDestination({
    series: spy,
    maxBatchSize,
    measurementName: "audit_event",
    staticTags: [],
    sleep: async (ms) => {
      spy.sleeps.push(ms);
    },
    initialRetryDelayMs: 100,
  });
}

describe("time-series destination", () => {
  it("writes in chunks of maxBatchSize after creating the database once", async () => {
    const spy = seriesSpy();
    const writer = destination(spy, 4);

    await writer.write({ id: "b", flushedAt: new Date(), events: events(10) });
    await writer.write({ id: "c", flushedAt: new Date(), events: events(1) });

    expect(spy.requests).toEqual([4, 4, 2, 1]);
    expect(spy.stored).toHaveLength(11);
    expect(spy.ensured).toBe(1);
  });

  it("isolates a refused point by rewriting its chunk in smaller chunks with growing backoff", async () => {
    const spy = seriesSpy();
    const writer = destination(spy, 20);
    const batch = events(20, [13]);

    const error = await writer
      .write({ id: "b", flushedAt: new Date(), events: batch })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(DestinationWriteError);
    expect((error as DestinationWriteError).permanent).toBe(true);
    expect((error as DestinationWriteError).failedEvents).toEqual([batch[13]]);
    expect(spy.stored).toHaveLength(19);
    expect(spy.requests).toEqual([20, 10, 10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(spy.sleeps).toEqual([100, 200]);
  });

  it("fails the rest of the batch at once when the server cannot be reached", async () => {
    const spy = seriesSpy();
    const writer = destination(spy, 2);
    const batch = events(5);
    await writer.write({ id: "a", flushedAt: new Date(), events: events(1) });
    spy.down = true;

    const error = (await writer
      .write({ id: "b", flushedAt: new Date(), events: batch })
      .catch((e: unknown) => e)) as DestinationWriteError;

    expect(error.permanent).toBe(false);
    expect(error.failedEvents).toEqual(batch);
    expect(spy.requests).toEqual([1, 2]);
  });

  it("retries creating the database before writing when it failed at start", async () => {
    const spy = seriesSpy();
    spy.down = true;
    const writer = destination(spy, 10);
    await expect(writer.prepare?.()).rejects.toBeInstanceOf(TimeseriesWriteError);
    spy.down = false;

    await writer.write({ id: "b", flushedAt: new Date(), events: events(1) });

    expect(spy.ensured).toBe(1);
    expect(spy.stored).toHaveLength(1);
  });
});
