/**
 * The durable queue over a small log (default segment size): full while a destination is behind,
 * taking events again once every destination has written everything, and an event larger than
 * the whole log answered "too-large" with its own WARN instead of leaving the queue "full".
 */
import { describe, expect, it } from "vitest";
import { RECORD_HEADER_BYTES } from "../../../../../../core/adapters/local/durable-queue/record-format.ts";
import type { AcceptedEvent } from "../../../../../../core/audit/accepted-event.ts";
import {
  eventNumber,
  fillWhileParquetIsBehind,
  numberedEvent,
  startDurableQueue,
} from "../../../../../helpers/durable-queue-harness.ts";
import { until } from "../../../../../helpers/eventually.ts";
import type { RecordingLogger } from "../../../../../helpers/recording-logger.ts";
import { suiteScratchDirectory } from "../../../../../helpers/suite-scratch-directory.ts";

const scratch = suiteScratchDirectory("steward-durable-queue-full-");

const event = numberedEvent;

/** An event whose log record takes `recordBytes` bytes. */
function eventOfRecordSize(n: number, recordBytes: number): AcceptedEvent {
  const bare = RECORD_HEADER_BYTES + Buffer.byteLength(JSON.stringify(event(n, "")));
  return event(n, "x".repeat(recordBytes - bare));
}

const numberOf = eventNumber;

/** The queue over a log with the log's own segment size. */
const start = (directory: string, maxDiskBytes: number) => startDurableQueue(directory, { maxDiskBytes });

const warnings = (logger: RecordingLogger, text: string) =>
  logger.at("warn").filter((entry) => entry.message.includes(text));

describe.each([65536, 131072])("durable event queue over a log of %i bytes", (maxDiskBytes) => {
  it("takes events again once every destination has written everything, and a restart repeats none", async () => {
    const directory = scratch.fresh();
    const first = await start(directory, maxDiskBytes);
    const { taken } = await fillWhileParquetIsBehind(first);
    expect(taken).toBeGreaterThan(50);
    expect(first.queue.usage().full?.refused).toBe(1);

    first.queue.written("parquet", first.delivered.parquet ?? []);
    await until(() => first.queue.usage().full === undefined, 3000);
    // As large as the log can hold at all.
    const large = eventOfRecordSize(taken + 1, maxDiskBytes);
    expect(await first.queue.enqueue(large)).toBe("queued");
    await first.queue.drain();
    expect(first.delivered.parquet?.at(-1)).toEqual(large);
    expect(first.delivered.json?.at(-1)).toEqual(large);
    expect(first.log.bytesOnDisk()).toBeLessThanOrEqual(maxDiskBytes);
    first.queue.written("parquet", [large]);
    await first.shutdown();

    const second = await start(directory, maxDiskBytes);
    await second.queue.drain();
    expect(second.delivered.parquet).toEqual([]);
    expect(second.delivered.json?.map(numberOf)).toEqual([taken + 1]);
    second.queue.written("json", second.delivered.json ?? []);
    await second.shutdown();

    const third = await start(directory, maxDiskBytes);
    await third.queue.drain();
    expect(third.delivered).toEqual({ parquet: [], json: [] });
    await third.shutdown();
  });
});

describe("durable event queue", () => {
  it("answers too-large for an event larger than the whole log, with its own WARN and count, without reporting the log full", async () => {
    const { queue, logger, shutdown } = await start(scratch.fresh(), 65536);
    expect(await queue.enqueue(event(1))).toBe("queued");

    expect(await queue.enqueue(eventOfRecordSize(2, 65537))).toBe("too-large");
    expect(await queue.enqueue(eventOfRecordSize(3, 100_000))).toBe("too-large");

    expect(warnings(logger, "larger than the whole queue")).toEqual([
      expect.objectContaining({
        fields: { recordBytes: 65537, maxDiskBytes: 65536, refusedSinceLastWarning: 1 },
      }),
    ]);
    expect(warnings(logger, "full on disk")).toEqual([]);
    expect(queue.usage().full).toBeUndefined();
    expect(queue.metrics()).toMatchObject({ droppedSize: 2, droppedQueueFull: 0, droppedTotal: 2 });
    expect(await queue.enqueue(event(4))).toBe("queued");
    await shutdown();
  });
});
