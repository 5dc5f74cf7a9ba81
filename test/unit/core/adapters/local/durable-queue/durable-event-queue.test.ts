import { describe, expect, it } from "vitest";
import {
  eventNumber,
  fillWhileParquetIsBehind,
  numberedEvent,
  startDurableQueue,
} from "../../../../../helpers/durable-queue-harness.ts";
import { until } from "../../../../../helpers/eventually.ts";
import { createManualClock } from "../../../../../helpers/manual-clock.ts";
import { type RecordingLogger, recordingLogger } from "../../../../../helpers/recording-logger.ts";
import { suiteScratchDirectory } from "../../../../../helpers/suite-scratch-directory.ts";

const scratch = suiteScratchDirectory("steward-durable-queue-");

const event = (n: number) => numberedEvent(n);
const numberOf = eventNumber;

/** A queue over a log in `directory` with 4 KiB segments; each destination's deliveries are recorded. */
const start = (directory: string, options: { maxDiskBytes?: number; logger?: RecordingLogger } = {}) =>
  startDurableQueue(directory, {
    maxDiskBytes: options.maxDiskBytes ?? 1024 * 1024,
    segmentBytes: 4096,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });

describe("durable event queue", () => {
  it("hands every event to every destination in log order", async () => {
    const { queue, delivered, shutdown } = await start(scratch.fresh());

    for (let n = 1; n <= 5; n++) expect(await queue.enqueue(event(n))).toBe("queued");
    await queue.drain();

    expect(delivered.parquet?.map(numberOf)).toEqual([1, 2, 3, 4, 5]);
    expect(delivered.json?.map(numberOf)).toEqual([1, 2, 3, 4, 5]);
    expect(queue.metrics()).toMatchObject({ received: 5, queued: 5, processed: 5, waiting: 0 });
    await shutdown();
  });

  it("reports how long handing an event to a destination took as processing times", async () => {
    const clock = createManualClock();
    let release = () => {};
    const firstHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Each destination's batcher holds event 1 until released; every other event goes at once.
    const { queue, delivered, shutdown } = await startDurableQueue(scratch.fresh(), {
      maxDiskBytes: 1024 * 1024,
      clock,
      onDeliver: (_destination, handed) => (numberOf(handed) === 1 ? firstHeld : undefined),
    });
    expect(queue.metrics()).toMatchObject({ processingTimeAvgMs: 0, processingTimeMaxMs: 0 });

    await queue.enqueue(event(1));
    await queue.enqueue(event(2));
    await until(() => delivered.parquet?.length === 1 && delivered.json?.length === 1);
    clock.advance(12);
    release();
    await queue.drain();

    const { processingTimeAvgMs, processingTimeP95Ms, processingTimeMaxMs } = queue.metrics();
    expect({ processingTimeAvgMs, processingTimeP95Ms, processingTimeMaxMs }).toEqual({
      processingTimeAvgMs: 6,
      processingTimeP95Ms: 12,
      processingTimeMaxMs: 12,
    });
    await shutdown();
  });

  it("after a restart, hands a destination what it had not written before any new event", async () => {
    const directory = scratch.fresh();
    const first = await start(directory);
    for (let n = 1; n <= 4; n++) await first.queue.enqueue(event(n));
    await first.queue.drain();
    first.queue.written("json", first.delivered.json ?? []);
    first.queue.written("parquet", (first.delivered.parquet ?? []).slice(0, 1));
    await first.shutdown();

    const second = await start(directory);
    await second.queue.enqueue(event(5));
    await second.queue.drain();

    expect(second.delivered.parquet?.map(numberOf)).toEqual([2, 3, 4, 5]);
    expect(second.delivered.json?.map(numberOf)).toEqual([5]);
    expect(second.delivered.parquet?.[0]).toEqual(event(2));
    await second.shutdown();
  });

  it("answers full at maxDiskBytes and warns, once a minute, naming the destination behind", async () => {
    const logger = recordingLogger();
    const started = await start(scratch.fresh(), { maxDiskBytes: 65536, logger });
    const { queue, shutdown } = started;
    const { taken, answer } = await fillWhileParquetIsBehind(started);
    const again = await queue.enqueue(event(taken + 2));

    expect(answer).toBe("full");
    expect(again).toBe("full");
    const warnings = logger.at("warn").filter((entry) => entry.message.includes("full"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.fields).toMatchObject({ destinationBehind: "parquet", maxDiskBytes: 65536 });
    expect(queue.metrics().droppedQueueFull).toBe(2);
    await shutdown();
  });

  it("reports disk use, each destination's backlog and a refusal for a full log until the log has room again", async () => {
    const started = await start(scratch.fresh(), { maxDiskBytes: 65536 });
    const { queue, delivered, log, shutdown } = started;
    const before = Date.now();
    const { taken, answer } = await fillWhileParquetIsBehind(started);
    await queue.enqueue(event(taken + 2));

    const whileFull = queue.usage();
    expect(answer).toBe("full");
    expect(whileFull).toMatchObject({ bytesOnDisk: log.bytesOnDisk(), maxDiskBytes: 65536, warnAtPct: 100 });
    expect(whileFull.bytesOnDisk).toBeGreaterThan(60_000);
    expect(whileFull.full?.refused).toBe(2);
    expect(Date.parse(whileFull.full?.since ?? "")).toBeGreaterThanOrEqual(before);
    expect(whileFull.destinations.json).toEqual({ behindBytes: 0, lastWrittenAt: expect.any(String) });
    expect(whileFull.destinations.parquet).toEqual({ behindBytes: log.end() - log.cursor("parquet") });
    expect(whileFull.destinations.parquet?.behindBytes).toBeGreaterThan(60_000);

    // The destination behind writes everything: the log frees its segments and is no longer full.
    queue.written("parquet", delivered.parquet ?? []);
    await until(() => log.bytesOnDisk() < 8192, 5000);
    const caughtUp = queue.usage();

    expect(caughtUp.full).toBeUndefined();
    expect(caughtUp.destinations.parquet).toEqual({ behindBytes: 0, lastWrittenAt: expect.any(String) });
    await shutdown();
  });

  it("refuses new events once stopping, after handing out every one it took", async () => {
    const { queue, delivered, log } = await start(scratch.fresh());
    const taken = Promise.all([1, 2, 3].map((n) => queue.enqueue(event(n))));

    await queue.stop();

    expect(await taken).toEqual(["queued", "queued", "queued"]);
    expect(delivered.parquet).toHaveLength(3);
    await expect(queue.enqueue(event(4))).rejects.toThrow("stopping");
    await log.close();
  });

  it("stops, quietly, once a destination given up at shutdown refuses what it is handed; the rest stays in the log", async () => {
    // parquet's writer is full and hangs until it is abandoned, then refuses every event.
    const logger = recordingLogger();
    let abandon: (() => void) | undefined;
    const abandoned = new Promise<void>((resolve) => {
      abandon = resolve;
    });
    const { queue, log, delivered } = await startDurableQueue(scratch.fresh(), {
      maxDiskBytes: 1024 * 1024,
      logger,
      onDeliver: (destination) =>
        destination === "parquet"
          ? abandoned.then(() => {
              throw new Error("parquet writer is stopping; audit events not accepted");
            })
          : undefined,
    });
    for (let n = 1; n <= 3; n++) await queue.enqueue(event(n));

    const stopping = queue.stop();
    abandon?.();
    await stopping;

    expect(delivered.json?.map(numberOf)).toEqual([1, 2, 3]);
    expect(logger.at("error")).toEqual([]);
    expect(queue.metrics().failed).toBe(0);
    expect(log.cursor("parquet")).toBe(log.start());
    await log.close();
  });
});
