import { describe, expect, it } from "vitest";
import {
  BatcherStoppedError,
  BufferFullError,
  type ItemBatch,
  type Refusal,
  startItemBatcher,
  UnwrittenItemsError,
} from "../../../../core/destinations/item-batcher.ts";
import { createAsyncManualClock } from "../../../helpers/async-manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

class RefusedError extends Error {
  constructor(
    readonly count: number,
    readonly reason = "field_type_conflict",
  ) {
    super("refused");
  }
}

function recordingDestination() {
  const destination = {
    written: [] as number[][],
    attempts: 0,
    failNext: [] as Error[],
    down: false,
    async write(batch: ItemBatch<number>) {
      destination.attempts += 1;
      const failure = destination.failNext.shift();
      if (failure !== undefined) throw failure;
      if (destination.down) throw new Error("down");
      destination.written.push([...batch.items]);
    },
    refusal(error: unknown): Refusal[] | undefined {
      return error instanceof RefusedError
        ? [{ reason: error.reason, count: error.count, detail: `${error.reason} detail`, fields: {} }]
        : undefined;
    },
  };
  return destination;
}

function start(
  destination: ReturnType<typeof recordingDestination>,
  extra: { maxWaitMs?: number; stopTimeoutMs?: number; onDone?: (items: readonly number[]) => void } = {},
) {
  const clock = createAsyncManualClock();
  const logger = recordingLogger();
  const batcher = startItemBatcher<number>({
    name: "dest",
    noun: "numbers",
    write: destination.write,
    refusal: destination.refusal,
    maxBatchSize: 2,
    writeFrequency: 60_000,
    maxBuffered: 2,
    initialRetryDelayMs: 1000,
    maxRetryDelayMs: 1000,
    clock,
    logger,
    ...extra,
  });
  return { clock, logger, batcher };
}

describe("startItemBatcher: batches and waiting for space", () => {
  it("reports each batch done, in order, once written or refused, never while it fails", async () => {
    const destination = recordingDestination();
    const done: number[][] = [];
    destination.failNext.push(new Error("down for a moment"));
    const { clock, batcher } = start(destination, { onDone: (items) => done.push([...items]) });

    await batcher.add(1);
    await batcher.add(2);
    await clock.advance(0);
    expect(done).toEqual([]);
    await clock.advance(1000);
    expect(done).toEqual([[1, 2]]);
    destination.failNext.push(new RefusedError(1));
    await batcher.add(3);
    await batcher.stop();

    expect(done).toEqual([[1, 2], [3]]);
  });

  it("makes add() wait at most maxWaitMs for space, then throws BufferFullError", async () => {
    const destination = recordingDestination();
    destination.down = true;
    const { clock, batcher } = start(destination, { maxWaitMs: 500 });
    await batcher.add(1);
    await batcher.add(2);

    const adding = batcher.add(3).catch((error: unknown) => error);
    let settled = false;
    void adding.then(() => {
      settled = true;
    });
    await clock.advance(499);
    expect(settled).toBe(false);
    await clock.advance(1);

    expect(await adding).toBeInstanceOf(BufferFullError);
    expect(batcher.stats().buffered).toBe(2);
    destination.down = false;
    await clock.advance(1000);
    await batcher.stop();
  });

  it("throws at once while the buffer stays full after a timed-out wait, and waits again once a batch is written", async () => {
    const destination = recordingDestination();
    destination.down = true;
    const { clock, batcher } = start(destination, { maxWaitMs: 500 });
    await batcher.add(1);
    await batcher.add(2);
    const first = batcher.add(3).catch((error: unknown) => error);
    await clock.advance(500);
    await first;

    const second = await batcher.add(4).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(BufferFullError);

    destination.down = false;
    await clock.advance(1000);
    await batcher.add(5);
    await batcher.stop();

    expect(destination.written).toEqual([[1, 2], [5]]);
  });
});

describe("startItemBatcher: refusals", () => {
  it("counts a refused batch as rejected, logs it and never writes it again", async () => {
    const destination = recordingDestination();
    destination.failNext.push(new RefusedError(2));
    const { clock, logger, batcher } = start(destination);

    await batcher.add(1);
    await batcher.add(2);
    await clock.advance(10_000);
    await batcher.add(3);
    await batcher.stop();

    expect(destination.attempts).toBe(2);
    expect(destination.written).toEqual([[3]]);
    expect(batcher.stats()).toEqual({
      buffered: 0,
      written: 1,
      failedWrites: 0,
      rejected: 2,
      refused: { field_type_conflict: 2 },
      lastRefusal: {
        reason: "field_type_conflict",
        at: expect.any(String),
        detail: "field_type_conflict detail",
      },
    });
    expect(logger.at("error").map((entry) => entry.fields?.refused)).toEqual([2]);
  });

  it("counts the rest of a partly refused batch as written", async () => {
    const destination = recordingDestination();
    destination.failNext.push(new RefusedError(1));
    const { batcher } = start(destination);

    await batcher.add(1);
    await batcher.add(2);
    await batcher.stop();

    expect(batcher.stats()).toMatchObject({ written: 1, rejected: 1, failedWrites: 0 });
  });

  it("writes the next batch at once after a refusal: no backoff, nothing held up", async () => {
    const destination = recordingDestination();
    destination.failNext.push(new RefusedError(1));
    const { batcher } = start(destination);

    await batcher.add(1);
    await batcher.add(2);
    await batcher.add(3);
    await batcher.add(4);
    await Promise.resolve();

    // No clock advanced: the batch after the refused one went out in the same turn of events.
    expect(destination.attempts).toBe(2);
    expect(destination.written).toEqual([[3, 4]]);
    expect(batcher.stats()).toMatchObject({ written: 3, rejected: 1, failedWrites: 0, buffered: 0 });
  });

  it("logs refusals at most once a minute per reason, with the count since the last line", async () => {
    const destination = recordingDestination();
    destination.failNext.push(
      new RefusedError(2, "beyond_retention"),
      new RefusedError(1, "beyond_retention"),
      new RefusedError(2, "field_type_conflict"),
    );
    const { clock, logger, batcher } = start(destination);
    for (let n = 1; n <= 6; n += 1) await batcher.add(n);
    await clock.advance(60_000);
    destination.failNext.push(new RefusedError(1, "beyond_retention"));
    await batcher.add(7);
    await batcher.add(8);
    await batcher.stop();

    const lines = logger.at("error").map((entry) => [entry.fields?.reason, entry.fields?.refused]);
    expect(lines).toEqual([
      ["beyond_retention", 2],
      ["field_type_conflict", 2],
      ["beyond_retention", 2],
    ]);
    expect(logger.at("error")[0]?.fields).toMatchObject({
      destination: "dest",
      detail: "beyond_retention detail",
    });
    expect(batcher.stats()).toMatchObject({
      rejected: 6,
      refused: { beyond_retention: 4, field_type_conflict: 2 },
      lastRefusal: { reason: "beyond_retention", at: new Date(clock.now()).toISOString() },
    });
  });

  it("finishes a shutdown during refusals without waiting on any clock", async () => {
    const destination = recordingDestination();
    destination.failNext.push(new RefusedError(2), new RefusedError(2));
    const { batcher } = start(destination, { stopTimeoutMs: 60_000 });
    await batcher.add(1);
    await batcher.add(2);
    await batcher.add(3);

    const stopped = batcher.stop();
    await expect(stopped).resolves.toBeUndefined();
    expect(batcher.stats()).toMatchObject({ rejected: 3, written: 0, buffered: 0 });
  });
});

describe("startItemBatcher: stopping", () => {
  it("stops at its timeout without waiting for a write that hangs, counting its items as unwritten", async () => {
    // A request to a server that stopped answering: it settles only at its own timeout, later.
    let settleWrite: (() => void) | undefined;
    const destination = recordingDestination();
    destination.write = async () => {
      destination.attempts += 1;
      await new Promise<void>((resolve) => {
        settleWrite = resolve;
      });
    };
    const { clock, batcher } = start(destination, { stopTimeoutMs: 5000 });
    await batcher.add(1);
    await batcher.add(2);
    await clock.settle();

    let outcome: unknown = "still stopping";
    const stopping = batcher.stop().then(
      () => "stopped",
      (error: unknown) => error,
    );
    void stopping.then((result) => {
      outcome = result;
    });
    await clock.advance(5000);

    expect(destination.attempts).toBe(1);
    expect(outcome).toBeInstanceOf(UnwrittenItemsError);
    expect((outcome as UnwrittenItemsError).unwritten).toBe(2);
    // The write that settles afterwards is not reported done.
    settleWrite?.();
    await clock.settle();
    expect(batcher.stats()).toMatchObject({ buffered: 2, written: 0 });
  });

  it("gives up at once when abandoned: add() waiting for space rejects, stop() does not wait for the write in flight", async () => {
    const destination = recordingDestination();
    destination.write = () => {
      destination.attempts += 1;
      return new Promise<void>(() => undefined);
    };
    const { clock, batcher } = start(destination, { stopTimeoutMs: 60_000 });
    await batcher.add(1);
    await batcher.add(2);
    await clock.settle();
    const waitingForSpace = batcher.add(3).catch((error: unknown) => error);

    batcher.abandon();

    expect(await waitingForSpace).toBeInstanceOf(BatcherStoppedError);
    const error = await batcher.stop().catch((stopError: unknown) => stopError);
    expect(error).toBeInstanceOf(UnwrittenItemsError);
    expect((error as UnwrittenItemsError).unwritten).toBe(2);
    await expect(batcher.add(4)).rejects.toBeInstanceOf(BatcherStoppedError);
  });
});
