/**
 * A full durable log takes appends again once every destination has written everything, whatever
 * the budget: also when the budget is one segment (64 KiB) or two, and also for an event as large
 * as the whole budget. Segments are sized by default here (maxDiskBytes / 8, at least 64 KiB).
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type DurableLog,
  openDurableLog,
} from "../../../../../../core/adapters/local/durable-queue/durable-log.ts";
import { RECORD_HEADER_BYTES } from "../../../../../../core/adapters/local/durable-queue/record-format.ts";
import { systemClock } from "../../../../../../core/system-clock.ts";
import { eventually } from "../../../../../helpers/eventually.ts";
import { recordingLogger } from "../../../../../helpers/recording-logger.ts";
import { suiteScratchDirectory } from "../../../../../helpers/suite-scratch-directory.ts";

const DESTINATIONS = ["parquet", "json"] as const;

const scratch = suiteScratchDirectory("steward-segment-log-full-");

const freshDirectory = () => join(scratch.fresh(), "audit-queue");

const open = (directory: string, maxDiskBytes: number) =>
  openDurableLog({
    directory,
    destinations: DESTINATIONS,
    maxDiskBytes,
    cursorSyncMs: 1,
    clock: systemClock,
    logger: recordingLogger(),
  });

let serial = 0;
/** A distinct payload whose record takes `recordBytes` bytes. */
function payload(recordBytes = 200): string {
  const head = `{"n":${serial++},"pad":"`;
  return `${head}${"x".repeat(recordBytes - RECORD_HEADER_BYTES - head.length - 2)}"}`;
}

/** Appends waves of concurrent records until one is refused; returns the payloads taken. */
async function fillToFull(log: DurableLog): Promise<string[]> {
  const taken: string[] = [];
  for (;;) {
    const wave = Array.from({ length: 20 }, () => payload());
    const answers = await Promise.all(wave.map((p) => log.append(p)));
    taken.push(...wave.filter((_, i) => answers[i] === "appended"));
    if (answers.includes("full")) return taken;
  }
}

/** Every record from `from` to the end, as payloads. */
async function readAll(log: DurableLog, from: number): Promise<string[]> {
  const payloads: string[] = [];
  let position = from;
  while (position < log.end()) {
    const { records, next } = await log.read(position, 256 * 1024);
    payloads.push(...records.map((record) => record.payload ?? ""));
    position = next;
  }
  return payloads;
}

const writeEverything = (log: DurableLog) => {
  for (const destination of DESTINATIONS) log.advance(destination, log.end());
};

/** What each destination is handed from its cursor on. */
async function unwritten(log: DurableLog): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const destination of DESTINATIONS) out[destination] = await readAll(log, log.cursor(destination));
  return out;
}

async function segmentBytesOnDisk(directory: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(directory)) {
    if (name.endsWith(".log")) total += (await stat(join(directory, name))).size;
  }
  return total;
}

describe.each([65536, 131072])("durable log of %i bytes", (maxDiskBytes) => {
  it.each([
    ["a small event", 200],
    ["an event as large as the whole budget", maxDiskBytes],
  ])("takes %s again once every destination has written everything", async (_, recordBytes) => {
    const directory = freshDirectory();
    const log = await open(directory, maxDiskBytes);
    const taken = await fillToFull(log);
    expect(taken.length).toBeGreaterThan(100);
    expect(await log.append(payload())).toBe("full");

    writeEverything(log);
    const next = payload(recordBytes);
    expect(await eventually(async () => (await log.append(next)) === "appended", 2000)).toBe(true);

    expect(log.bytesOnDisk()).toBeLessThanOrEqual(maxDiskBytes);
    expect(await unwritten(log)).toEqual({ parquet: [next], json: [next] });
    await log.close();
    expect(await segmentBytesOnDisk(directory)).toBeLessThanOrEqual(maxDiskBytes);

    // A restart hands each destination the one event it has not written, once, and nothing else.
    const reopened = await open(directory, maxDiskBytes);
    expect(await unwritten(reopened)).toEqual({ parquet: [next], json: [next] });
    writeEverything(reopened);
    await reopened.close();
    const again = await open(directory, maxDiskBytes);
    expect(await unwritten(again)).toEqual({ parquet: [], json: [] });
    await again.close();
  });

  it("after a crash, replays nothing of what was freed and every acknowledged event after it", async () => {
    const directory = freshDirectory();
    const log = await open(directory, maxDiskBytes);
    await fillToFull(log);
    writeEverything(log);
    const next = payload(maxDiskBytes / 2);
    expect(await eventually(async () => (await log.append(next)) === "appended", 2000)).toBe(true);

    const reopened = await open(directory, maxDiskBytes); // the first one was never closed
    expect(await unwritten(reopened)).toEqual({ parquet: [next], json: [next] });
    await reopened.close();
    await log.close();
  });

  it("keeps refusing while one destination has not written the whole log, and loses none of it", async () => {
    const directory = freshDirectory();
    const log = await open(directory, maxDiskBytes);
    const taken = await fillToFull(log);
    const { records } = await log.read(log.start(), 4096);
    log.advance("parquet", log.end());
    log.advance("json", records.at(-1)?.end as number);
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(await log.append(payload())).toBe("full");
    const remaining = await readAll(log, log.cursor("json"));
    expect(remaining).toEqual(taken.slice(taken.length - remaining.length));
    expect(remaining.length).toBeGreaterThan(taken.length - records.length - 1);

    log.advance("json", log.end());
    expect(await eventually(async () => (await log.append(payload())) === "appended", 2000)).toBe(true);
    await log.close();
  });

  it("takes, exactly once, the concurrent appends that fit once everything was written", async () => {
    const directory = freshDirectory();
    const log = await open(directory, maxDiskBytes);
    await fillToFull(log);
    writeEverything(log);
    await new Promise((resolve) => setTimeout(resolve, 20));

    // More than the budget holds, all at once: as many as fit are taken, the rest refused.
    const wave = Array.from({ length: Math.ceil((maxDiskBytes * 1.5) / 1000) }, () => payload(1000));
    const answers = await Promise.all(wave.map((p) => log.append(p)));
    const accepted = wave.filter((_, i) => answers[i] === "appended");
    expect(accepted.length).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer !== "appended").every((answer) => answer === "full")).toBe(true);
    expect(log.bytesOnDisk()).toBeLessThanOrEqual(maxDiskBytes);
    await log.close();

    const reopened = await open(directory, maxDiskBytes);
    expect(await unwritten(reopened)).toEqual({ parquet: accepted, json: accepted });
    await reopened.close();
  });
});

describe("durable log", () => {
  it("takes an event of nearly the whole budget once everything is written, with eight segments in the budget", async () => {
    const maxDiskBytes = 8 * 65536;
    const log = await open(freshDirectory(), maxDiskBytes);
    for (let i = 0; i < 15; i++) expect(await log.append(payload(2000))).toBe("appended");
    writeEverything(log);

    const large = payload(maxDiskBytes - 1000);
    expect(await eventually(async () => (await log.append(large)) === "appended", 2000)).toBe(true);
    expect(await unwritten(log)).toEqual({ parquet: [large], json: [large] });
    await log.close();
  });

  it("answers too-large, writing nothing, for a record larger than the whole budget, and goes on", async () => {
    const log = await open(freshDirectory(), 65536);
    await log.append(payload());
    const end = log.end();

    expect(await log.append(payload(65537))).toBe("too-large");
    expect(log.end()).toBe(end);
    expect(await log.append(payload(65536 - end))).toBe("appended");
    await log.close();
  });
});
