import { describe, expect, it } from "vitest";
import type { AcceptedEvent } from "../../../../core/audit/accepted-event.ts";
import { carriesObjectData } from "../../../../core/audit/audit-facts.ts";
import {
  type BatcherOptions,
  BatcherStoppedError,
  startBatcher,
  UnwrittenEventsError,
} from "../../../../core/destinations/batcher.ts";
import { DestinationWriteError } from "../../../../core/destinations/destination-write-error.ts";
import type { AuditBatch, AuditDestination } from "../../../../core/ports.ts";
import { createAsyncManualClock } from "../../../helpers/async-manual-clock.ts";
import { acceptedEvent, objectDataEvent } from "../../../helpers/audit-events.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

function recordingWriter(failures = 0): AuditDestination & { batches: AuditBatch[]; attempts: number } {
  let remainingFailures = failures;
  const writer = {
    name: "test",
    batches: [] as AuditBatch[],
    attempts: 0,
    async write(batch: AuditBatch) {
      writer.attempts += 1;
      if (remainingFailures > 0) {
        remainingFailures -= 1;
        // An outage, as audit destinations report one.
        throw new DestinationWriteError("test", batch.events, { cause: new Error("destination down") });
      }
      writer.batches.push(batch);
    },
  };
  return writer;
}

/** A batcher over `writer` on a manual clock, logging to a recording logger. */
function startTestBatcher<W extends AuditDestination>(
  writer: W,
  options: Omit<BatcherOptions, "destination" | "clock" | "logger">,
) {
  const clock = createAsyncManualClock();
  const logger = recordingLogger();
  const batcher = startBatcher({ destination: writer, clock, logger, ...options });
  return { clock, logger, writer, batcher };
}

const ids = (events: readonly AcceptedEvent[]) => events.map((event) => event.envelope.eventId);

describe("startBatcher: when a batch is written", () => {
  it("writes a batch as soon as maxBatchSize events are buffered", async () => {
    const { clock, writer, batcher } = startTestBatcher(recordingWriter(), {
      maxBatchSize: 3,
      writeFrequency: 20_000,
    });
    const events = Array.from({ length: 7 }, () => acceptedEvent());

    for (const event of events) await batcher.add(event);
    await clock.settle();

    expect(writer.batches.map((batch) => ids(batch.events))).toEqual([
      ids(events.slice(0, 3)),
      ids(events.slice(3, 6)),
    ]);
    expect(batcher.stats()).toEqual({ buffered: 1, written: 6, failedWrites: 0, rejected: 0 });
    await batcher.stop();
  });

  it("counts the events a destination skips by design as skipped, not written", async () => {
    // Prepare: a destination that, as the json one, stores only events carrying objectData.
    const writer = Object.assign(recordingWriter(), {
      skips: { why: "no objectData", event: (event: AcceptedEvent) => !carriesObjectData(event) },
    });
    const { clock, batcher } = startTestBatcher(writer, { maxBatchSize: 3, writeFrequency: 20_000 });

    // Act
    for (const event of [acceptedEvent(), objectDataEvent({ objectType: "table" }), acceptedEvent()])
      await batcher.add(event);
    await clock.settle();

    // Assess
    expect(batcher.stats()).toEqual({
      buffered: 0,
      written: 1,
      failedWrites: 0,
      rejected: 0,
      skipped: { events: 2, why: "no objectData" },
    });
    await batcher.stop();
  });

  it("writes writeFrequency ms after the first buffered event, not before", async () => {
    const { clock, writer, batcher } = startTestBatcher(recordingWriter(), {
      maxBatchSize: 100,
      writeFrequency: 1000,
    });

    await batcher.add(acceptedEvent());
    await clock.advance(600);
    await batcher.add(acceptedEvent());
    await clock.advance(399);
    expect(writer.batches).toHaveLength(0);
    await clock.advance(1);

    expect(writer.batches).toHaveLength(1);
    expect(writer.batches[0]?.events).toHaveLength(2);
    await batcher.stop();
  });

  it("writes every event at once when writeFrequency is 0", async () => {
    const { clock, writer, batcher } = startTestBatcher(recordingWriter(), {
      maxBatchSize: 1000,
      writeFrequency: 0,
    });

    await batcher.add(acceptedEvent());
    await clock.settle();

    expect(writer.batches).toHaveLength(1);
    await batcher.stop();
  });

  it("flushes what is buffered on stop and refuses events afterwards", async () => {
    const { writer, batcher } = startTestBatcher(recordingWriter(), {
      maxBatchSize: 100,
      writeFrequency: 60_000,
    });
    const events = [acceptedEvent(), acceptedEvent()];
    for (const event of events) await batcher.add(event);

    await batcher.stop();

    expect(writer.batches.map((batch) => ids(batch.events))).toEqual([ids(events)]);
    await expect(batcher.add(acceptedEvent())).rejects.toBeInstanceOf(BatcherStoppedError);
  });
});

describe("startBatcher: a destination that is down", () => {
  it("retries a failed batch with doubling backoff, counts each failure, loses nothing", async () => {
    const { clock, logger, writer, batcher } = startTestBatcher(recordingWriter(3), {
      maxBatchSize: 2,
      writeFrequency: 0,
      initialRetryDelayMs: 100,
    });
    const event = acceptedEvent();

    await batcher.add(event);
    await clock.settle();
    expect(writer.attempts).toBe(1);
    await clock.advance(99);
    expect(writer.attempts).toBe(1);
    await clock.advance(1);
    expect(writer.attempts).toBe(2);
    await clock.advance(200);
    expect(writer.attempts).toBe(3);
    await clock.advance(400);

    expect(writer.batches.map((batch) => ids(batch.events))).toEqual([[event.envelope.eventId]]);
    expect(batcher.stats()).toEqual({ buffered: 0, written: 1, failedWrites: 3, rejected: 0 });
    expect(logger.at("warn").map((entry) => entry.fields?.failedWrites)).toEqual([1]);
    expect(logger.at("info").map((entry) => [entry.message, entry.fields?.failedWrites])).toEqual([
      ["writing audit events resumed", 3],
    ]);
    await batcher.stop();
  });

  it("names a destination that stays down in a WARN at most once a minute, with the failures since", async () => {
    const { clock, logger, writer, batcher } = startTestBatcher(recordingWriter(Number.POSITIVE_INFINITY), {
      maxBatchSize: 1,
      writeFrequency: 0,
      initialRetryDelayMs: 1000,
      maxRetryDelayMs: 5000,
      stopTimeoutMs: 5000,
    });

    await batcher.add(acceptedEvent());
    await clock.settle();
    for (let second = 0; second < 150; second++) await clock.advance(1000);

    // Failures at 0, 1, 3, 7, 12, 17, ... 147 s (32 in 150 s): a WARN at 0, 62 and 122 s.
    const warns = logger.at("warn");
    expect(warns.map((entry) => [entry.message, entry.fields?.destination])).toEqual([
      ["writing audit events failed; will retry", "test"],
      ["writing audit events failed; will retry", "test"],
      ["writing audit events failed; will retry", "test"],
    ]);
    expect(warns.map((entry) => entry.fields?.failedWrites)).toEqual([1, 14, 12]);
    expect(logger.at("error")).toEqual([]);
    expect(batcher.stats().failedWrites).toBe(writer.attempts);
    const stopping = batcher.stop().catch((error: unknown) => error);
    await clock.advance(5000);
    expect(await stopping).toBeInstanceOf(UnwrittenEventsError);
  });

  it("keeps the batch id across retries so a rewrite replaces the same files", async () => {
    const seen: string[] = [];
    let fail = true;
    const writer: AuditDestination = {
      name: "test",
      async write(batch) {
        seen.push(batch.id);
        if (fail) {
          fail = false;
          throw new Error("once");
        }
      },
    };
    const { clock, batcher } = startTestBatcher(writer, { maxBatchSize: 1, writeFrequency: 0 });

    await batcher.add(acceptedEvent());
    await clock.advance(1000);

    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    await batcher.stop();
  });

  it("makes add() wait while the buffer is full and the destination is down", async () => {
    const { clock, batcher } = startTestBatcher(recordingWriter(1), {
      maxBatchSize: 2,
      writeFrequency: 0,
      maxBuffered: 2,
      initialRetryDelayMs: 1000,
    });
    await batcher.add(acceptedEvent());
    await batcher.add(acceptedEvent());

    let third = false;
    const adding = batcher.add(acceptedEvent()).then(() => {
      third = true;
    });
    await clock.advance(500);
    expect(third).toBe(false);
    await clock.advance(500);
    await adding;

    expect(third).toBe(true);
    await batcher.stop();
    expect(batcher.stats().written).toBe(3);
  });

  it("rejects stop with UnwrittenEventsError when the destination stays down past the stop timeout", async () => {
    const { clock, batcher } = startTestBatcher(recordingWriter(Number.POSITIVE_INFINITY), {
      maxBatchSize: 10,
      writeFrequency: 60_000,
      stopTimeoutMs: 5000,
    });
    await batcher.add(acceptedEvent());

    const stopping = batcher.stop().catch((error: unknown) => error);
    await clock.advance(5000);
    const error = await stopping;

    expect(error).toBeInstanceOf(UnwrittenEventsError);
    expect((error as UnwrittenEventsError).unwritten).toBe(1);
    expect(batcher.stats().buffered).toBe(1);
  });
});

describe("startBatcher: a destination that keeps throwing something other than DestinationWriteError", () => {
  it("refuses, as unwritable, only the event it fails on, naming its eventId, and writes the others", async () => {
    const events = Array.from({ length: 5 }, () => acceptedEvent());
    const poison = events[3] as AcceptedEvent;
    const written: string[] = [];
    const writer: AuditDestination = {
      name: "test",
      async write(batch) {
        if (batch.events.includes(poison)) throw new RangeError("Maximum call stack size exceeded");
        written.push(...ids(batch.events));
      },
    };
    const done: string[][] = [];
    const { clock, logger, batcher } = startTestBatcher(writer, {
      maxBatchSize: 5,
      writeFrequency: 60_000,
      onDone: (batch) => done.push(ids(batch)),
    });

    for (const event of events) await batcher.add(event);
    await clock.advance(1000);
    await clock.advance(2000);

    expect(written.sort()).toEqual(ids(events.filter((event) => event !== poison)).sort());
    expect(batcher.stats()).toMatchObject({ written: 4, rejected: 1, refused: { unwritable: 1 } });
    expect(done).toEqual([ids(events)]);
    const errors = logger.at("error");
    expect(errors.map((entry) => [entry.message, entry.fields?.reason, entry.fields?.eventIds])).toEqual([
      [
        "destination refused audit events; not written there, not retried",
        "unwritable",
        poison.envelope.eventId,
      ],
    ]);
    expect(errors[0]?.fields?.detail).toBe("RangeError: Maximum call stack size exceeded");
    await batcher.stop();
  });
});
