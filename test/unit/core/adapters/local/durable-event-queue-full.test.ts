/**
 * The durable queue over a small log (default segment size): full while a destination is behind,
 * taking events again once every destination has written everything, and an event larger than
 * the whole log answered "too-large" with its own WARN instead of leaving the queue "full".
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDurableEventQueue } from "../../../../../core/adapters/local/durable-event-queue.ts";
import { openSegmentLog } from "../../../../../core/adapters/local/segment-log.ts";
import type { AcceptedEvent } from "../../../../../core/audit/accepted-event.ts";
import { RECORD_HEADER_BYTES } from "../../../../../core/durable-log/record-format.ts";
import { systemClock } from "../../../../../core/system-clock.ts";
import { until } from "../../../../helpers/eventually.ts";
import { type RecordingLogger, recordingLogger } from "../../../../helpers/recording-logger.ts";

let root: string;
let count = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "steward-durable-queue-full-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const DESTINATIONS = ["parquet", "json"] as const;

function event(n: number, pad = ""): AcceptedEvent {
  return {
    envelope: {
      schemaVersion: 1,
      eventId: `0b6f2b4e-1c1d-4d3e-9a7b-${String(n).padStart(12, "0")}`,
      timestamp: "2026-01-01T00:00:00Z",
      type: "audit.event",
      payload: { pad },
    },
    receivedAt: "2026-01-01T00:00:00.000Z",
    clientIp: "127.0.0.1",
  };
}

/** An event whose log record takes `recordBytes` bytes. */
function eventOfRecordSize(n: number, recordBytes: number): AcceptedEvent {
  const bare = RECORD_HEADER_BYTES + Buffer.byteLength(JSON.stringify(event(n)));
  return event(n, "x".repeat(recordBytes - bare));
}

const numberOf = (e: AcceptedEvent) => Number(e.envelope.eventId.slice(-12));

async function start(directory: string, maxDiskBytes: number) {
  const logger = recordingLogger();
  const log = await openSegmentLog({
    directory,
    destinations: DESTINATIONS,
    maxDiskBytes,
    cursorSyncMs: 1,
    clock: systemClock,
    logger,
  });
  const delivered: Record<string, AcceptedEvent[]> = { parquet: [], json: [] };
  const queue = createDurableEventQueue(
    { backpressureThreshold: 100, rateLimit: { enable: false, maxPerMinute: 600 } },
    {
      log,
      destinations: DESTINATIONS,
      deliver: async (destination, e) => void delivered[destination]?.push(e),
      logger,
      clock: systemClock,
    },
  );
  const shutdown = async () => {
    await queue.stop();
    await log.close();
  };
  return { queue, log, delivered, logger, shutdown };
}

type Started = Awaited<ReturnType<typeof start>>;

/** Enqueues until refused; json writes each event as it comes, parquet nothing. Returns the count taken. */
async function fillWhileParquetIsBehind({ queue, delivered }: Started): Promise<number> {
  let n = 0;
  for (;;) {
    const answer = await queue.enqueue(event(n + 1));
    if (answer !== "queued") return n;
    n += 1;
    await queue.drain();
    queue.written("json", delivered.json ?? []);
  }
}

const warnings = (logger: RecordingLogger, text: string) =>
  logger.at("warn").filter((entry) => entry.message.includes(text));

describe.each([65536, 131072])("durable event queue over a log of %i bytes", (maxDiskBytes) => {
  it("takes events again once every destination has written everything, and a restart repeats none", async () => {
    const directory = join(root, `case-${count++}`);
    const first = await start(directory, maxDiskBytes);
    const taken = await fillWhileParquetIsBehind(first);
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
    const { queue, logger, shutdown } = await start(join(root, `case-${count++}`), 65536);
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
