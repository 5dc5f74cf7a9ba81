/**
 * No endless retry for an error that is not an outage: a writer that tells outages from other
 * errors (as the audit batcher does) retries such a fault three times, with its backoff, and
 * then writes the batch in halves, down to the item that causes it, which is refused as
 * `unwritable`; the rest is written. An outage is still retried for as long as it lasts, also in
 * a half. A writer that gives no `isOutage` (the agent's destinations) keeps retrying any error.
 */
import { describe, expect, it } from "vitest";
import {
  type ItemBatch,
  type ItemBatcherOptions,
  startItemBatcher,
} from "../../../../core/destinations/item-batcher.ts";
import { createAsyncManualClock } from "../../../helpers/async-manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

class Outage extends Error {}

/**
 * Items are numbers. The destination fails its first `passingFaults` writes with a RangeError,
 * then meets an Outage for any write `outage` picks, throws a TypeError for any batch holding a
 * `poison` number, and otherwise stores the batch.
 */
function faultyDestination(poison: readonly number[]) {
  const clock = createAsyncManualClock();
  const destination = {
    passingFaults: 0,
    outage: (_items: readonly number[]) => false,
    attempts: [] as { id: string; items: number[]; at: number }[],
    stored: [] as number[],
    async write(batch: ItemBatch<number>) {
      destination.attempts.push({ id: batch.id, items: [...batch.items], at: clock.now() });
      if (destination.passingFaults > 0) {
        destination.passingFaults -= 1;
        throw new RangeError("passing");
      }
      if (destination.outage(batch.items)) throw new Outage("unreachable");
      const bad = batch.items.find((item) => poison.includes(item));
      if (bad !== undefined) throw new TypeError(`cannot read item ${bad}`);
      destination.stored.push(...batch.items);
    },
  };
  return { destination, clock };
}

function start(
  poison: readonly number[],
  extra: Partial<ItemBatcherOptions<number>> = { isOutage: (error) => error instanceof Outage },
) {
  const { destination, clock } = faultyDestination(poison);
  const logger = recordingLogger();
  const done: number[][] = [];
  const batcher = startItemBatcher<number>({
    name: "dest",
    noun: "numbers",
    write: destination.write,
    refusal: () => undefined,
    nameItems: (items) => ({ numbers: items.join(",") }),
    onDone: (items) => done.push([...items]),
    maxBatchSize: 8,
    writeFrequency: 60_000,
    initialRetryDelayMs: 1000,
    maxRetryDelayMs: 30_000,
    clock,
    logger,
    ...extra,
  });
  const addAll = async (items: readonly number[]) => {
    for (const item of items) await batcher.add(item);
    await clock.settle();
  };
  return { destination, clock, logger, batcher, done, addAll };
}

const EIGHT = [1, 2, 3, 4, 5, 6, 7, 8];

describe("a writer that tells outages from faults", () => {
  it("writes a batch three times, then refuses only the item it keeps failing on as unwritable and writes the rest", async () => {
    const { destination, clock, logger, batcher, done, addAll } = start([6]);

    await addAll(EIGHT);
    await clock.advance(1000);
    await clock.advance(2000);

    expect(destination.attempts.slice(0, 3).map(({ items, at }) => [items.length, at - clock.now()])).toEqual(
      [
        [8, -3000],
        [8, -2000],
        [8, 0],
      ],
    );
    expect(destination.stored.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 7, 8]);
    expect(batcher.stats()).toEqual({
      buffered: 0,
      written: 7,
      failedWrites: 2,
      rejected: 1,
      refused: { unwritable: 1 },
      lastRefusal: { reason: "unwritable", at: expect.any(String), detail: "TypeError: cannot read item 6" },
    });
    expect(done).toEqual([EIGHT]);
    const errors = logger.at("error");
    expect(errors).toHaveLength(1);
    expect(errors[0]?.fields).toMatchObject({
      destination: "dest",
      reason: "unwritable",
      refused: 1,
      numbers: "6",
    });
    await batcher.stop();
  });

  it("halves the batch at once, no backoff, each half under its own id, the first under the batch's", async () => {
    const { destination, clock, batcher, addAll } = start([6]);

    await addAll(EIGHT);
    await clock.advance(3000);

    const [whole] = destination.attempts;
    const parts = destination.attempts.slice(3);
    expect(parts.map(({ id, items }) => [id.replace(whole?.id ?? "", "<id>"), items])).toEqual([
      ["<id>", [1, 2, 3, 4]],
      ["<id>-4", [5, 6, 7, 8]],
      ["<id>-4", [5, 6]],
      ["<id>-4", [5]],
      ["<id>-5", [6]],
      ["<id>-6", [7, 8]],
    ]);
    expect(new Set(parts.map(({ at }) => at))).toEqual(new Set([clock.now()]));
    await batcher.stop();
  });

  it("rides out a fault that passes within three writes: nothing is refused", async () => {
    const { destination, clock, batcher, addAll } = start([]);
    destination.passingFaults = 2;

    await addAll(EIGHT);
    await clock.advance(3000);

    expect(destination.stored).toEqual(EIGHT);
    expect(batcher.stats()).toEqual({ buffered: 0, written: 8, failedWrites: 2, rejected: 0 });
    await batcher.stop();
  });

  it("retries an outage a half meets with backoff until it ends, then goes on isolating", async () => {
    const { destination, clock, batcher, addAll } = start([2]);
    const until = clock.now() + 60_000;
    // The first half meets an outage for a minute.
    destination.outage = (items) => items.length === 4 && items[0] === 1 && clock.now() < until;

    await addAll(EIGHT);
    for (let second = 0; second < 120; second += 1) await clock.advance(1000);

    const halfWrites = destination.attempts.filter(({ items }) => items.length === 4 && items[0] === 1);
    expect(halfWrites.length).toBeGreaterThan(3);
    expect(halfWrites.at(-2)?.at).toBeLessThan(until);
    expect(destination.stored.sort((a, b) => a - b)).toEqual([1, 3, 4, 5, 6, 7, 8]);
    expect(batcher.stats()).toMatchObject({ written: 7, rejected: 1, refused: { unwritable: 1 } });
    await batcher.stop();
  });
});

describe("a writer that gives no isOutage (the agent's destinations)", () => {
  it("retries a TypeError for as long as it lasts, as an outage, and refuses nothing", async () => {
    const { destination, clock, batcher, addAll } = start([6], {});

    await addAll(EIGHT);
    for (let second = 0; second < 600; second += 1) await clock.advance(1000);

    expect(destination.stored).toEqual([]);
    expect(destination.attempts.every(({ items }) => items.length === 8)).toBe(true);
    expect(destination.attempts.length).toBeGreaterThan(20);
    expect(batcher.stats()).toMatchObject({ buffered: 8, written: 0, rejected: 0 });
    batcher.abandon();
    await batcher.stop().catch(() => undefined);
  });
});
