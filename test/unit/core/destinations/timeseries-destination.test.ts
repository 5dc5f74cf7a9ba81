import { describe, expect, it } from "vitest";
import type { AcceptedEvent } from "../../../../core/audit/accepted-event.ts";
import { DestinationWriteError } from "../../../../core/destinations/destination-write-error.ts";
import { createTimeseriesDestination } from "../../../../core/destinations/timeseries-destination.ts";
import type { TimeseriesRefusal } from "../../../../core/destinations/timeseries-refusal.ts";
import { TimeseriesWriteError } from "../../../../core/destinations/timeseries-write-error.ts";
import type { TimeseriesClient } from "../../../../core/ports.ts";
import type { Point } from "../../../../core/shared/line-protocol.ts";
import { acceptedEvent, deeplyNestedEvent } from "../../../helpers/audit-events.ts";

/**
 * Refuses the points whose appName is "bad" as InfluxDB does: with `storesRest` (a partial write)
 * it stores the others and names the bad ones; without, it stores nothing of the request and
 * names them. Fails (no answer) while down.
 */
function seriesSpy() {
  const spy = {
    down: false,
    storesRest: true,
    requests: [] as number[],
    stored: [] as Point[],
    ensured: 0,
    async ensureDatabase() {
      if (spy.down) throw new TimeseriesWriteError("no answer", undefined);
      spy.ensured += 1;
    },
    async write(points: readonly Point[]) {
      spy.requests.push(points.length);
      if (spy.down) throw new TimeseriesWriteError("no answer", undefined);
      const bad = points.flatMap((point, index) => (point.tags.appName === "bad" ? [index] : []));
      if (bad.length > 0) {
        if (spy.storesRest) spy.stored.push(...points.filter((point) => point.tags.appName !== "bad"));
        const refusal: TimeseriesRefusal = {
          reason: "field_type_conflict",
          detail: "partial write: field type conflict",
          count: bad.length,
          lines: bad,
          restStored: spy.storesRest,
        };
        throw new TimeseriesWriteError("answered 400", 400, { refusal });
      }
      spy.stored.push(...points);
    },
    writeLines: () => Promise.reject(new Error("the audit destination writes points")),
  } satisfies TimeseriesClient & Record<string, unknown>;
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

  it("counts what a partial write stored as written at once and reports the refused point, in one request", async () => {
    const spy = seriesSpy();
    const writer = destination(spy, 20);
    const batch = events(20, [13]);

    const error = await writer
      .write({ id: "b", flushedAt: new Date(), events: batch })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(DestinationWriteError);
    expect((error as DestinationWriteError).refused).toBe(true);
    expect((error as DestinationWriteError).failedEvents).toEqual([batch[13]]);
    expect((error as DestinationWriteError).refusals).toEqual([
      {
        reason: "field_type_conflict",
        count: 1,
        detail: "partial write: field type conflict",
        events: [batch[13]],
      },
    ]);
    expect(spy.stored).toHaveLength(19);
    expect(spy.requests).toEqual([20]);
  });

  it("writes the rest once more without the named points when the server stored nothing", async () => {
    const spy = seriesSpy();
    spy.storesRest = false;
    const writer = destination(spy, 10);
    const batch = events(10, [2, 7]);

    const error = (await writer
      .write({ id: "b", flushedAt: new Date(), events: batch })
      .catch((e: unknown) => e)) as DestinationWriteError;

    expect(spy.requests).toEqual([10, 8]);
    expect(spy.stored).toHaveLength(8);
    expect(error.refused).toBe(true);
    expect(error.failedEvents).toEqual([batch[2], batch[7]]);
    expect(error.refusals?.map((refusal) => [refusal.reason, refusal.count])).toEqual([
      ["field_type_conflict", 2],
    ]);
  });

  it("refuses the whole chunk, without a rewrite, when the server names no point and stored nothing", async () => {
    const spy = seriesSpy();
    const writer = destination(spy, 3);
    const batch = events(5);
    spy.write = async (points) => {
      spy.requests.push(points.length);
      if (points.length === 3) throw new TimeseriesWriteError("answered 400: bad request", 400);
      spy.stored.push(...points);
    };

    const error = (await writer
      .write({ id: "b", flushedAt: new Date(), events: batch })
      .catch((e: unknown) => e)) as DestinationWriteError;

    expect(spy.requests).toEqual([3, 2]);
    expect(spy.stored).toHaveLength(2);
    expect(error.refusals?.map((refusal) => [refusal.reason, refusal.count])).toEqual([["other", 3]]);
    expect(error.failedEvents).toEqual(batch.slice(0, 3));
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

    expect(error.refused).toBe(false);
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

describe("time-series destination: an event it cannot encode", () => {
  it("refuses it on its own as unencodable and writes the others' points", async () => {
    const spy = seriesSpy();
    const writer = destination(spy, 10);
    const batch = events(4);
    const poison = deeplyNestedEvent();

    const error = (await writer
      .write({ id: "b", flushedAt: new Date(), events: [...batch.slice(0, 2), poison, ...batch.slice(2)] })
      .catch((e: unknown) => e)) as DestinationWriteError;

    expect(error.refused).toBe(true);
    expect(error.failedEvents).toEqual([poison]);
    expect(error.refusals).toEqual([
      {
        reason: "unencodable",
        count: 1,
        detail: "RangeError: Maximum call stack size exceeded",
        events: [poison],
      },
    ]);
    expect(spy.stored).toHaveLength(4);
  });

  it("reports an outage for the unwritten rest, with the refusals met before it beside them", async () => {
    const spy = seriesSpy();
    const writer = destination(spy, 2);
    const batch = events(6, [1]);
    const poison = deeplyNestedEvent();
    spy.write = async (points) => {
      spy.requests.push(points.length);
      if (spy.requests.length === 2) throw new TimeseriesWriteError("no answer", undefined);
      const bad = points.flatMap((point, index) => (point.tags.appName === "bad" ? [index] : []));
      spy.stored.push(...points.filter((point) => point.tags.appName !== "bad"));
      if (bad.length > 0) {
        const refusal = {
          reason: "field_type_conflict",
          detail: "conflict",
          count: 1,
          lines: bad,
          restStored: true,
        };
        throw new TimeseriesWriteError("answered 400", 400, { refusal: refusal as TimeseriesRefusal });
      }
    };

    const error = (await writer
      .write({ id: "b", flushedAt: new Date(), events: [poison, ...batch] })
      .catch((e: unknown) => e)) as DestinationWriteError;

    expect(spy.requests).toEqual([2, 2]);
    expect(error.refused).toBe(false);
    expect(error.failedEvents).toEqual(batch.slice(2));
    expect(error.refusals?.map(({ reason, events: named }) => [reason, named])).toEqual([
      ["unencodable", [poison]],
      ["field_type_conflict", [batch[1]]],
    ]);
  });
});
