import { appendFile, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type DurableLog,
  type DurableLogOptions,
  openDurableLog,
} from "../../../../../../core/adapters/local/durable-queue/durable-log.ts";
import { encodeRecord } from "../../../../../../core/adapters/local/durable-queue/record-format.ts";
import { systemClock } from "../../../../../../core/system-clock.ts";
import { eventually } from "../../../../../helpers/eventually.ts";
import { type RecordingLogger, recordingLogger } from "../../../../../helpers/recording-logger.ts";
import { suiteScratchDirectory } from "../../../../../helpers/suite-scratch-directory.ts";

const scratch = suiteScratchDirectory("steward-segment-log-");

const freshDirectory = () => join(scratch.fresh(), "audit-queue");

function open(directory: string, logger: RecordingLogger, options: Partial<DurableLogOptions> = {}) {
  return openDurableLog({
    directory,
    destinations: ["parquet", "json"],
    maxDiskBytes: 1024 * 1024,
    cursorSyncMs: 1,
    clock: systemClock,
    logger,
    ...options,
  });
}

/** Every record from `from` to the end, as payloads. */
async function readAll(log: DurableLog, from = log.start()): Promise<string[]> {
  const payloads: string[] = [];
  let position = from;
  while (position < log.end()) {
    const { records, next } = await log.read(position, 4096);
    payloads.push(...records.map((record) => record.payload ?? ""));
    position = next;
  }
  return payloads;
}

/**
 * Both ways the log makes a group durable: written through `O_DSYNC` (Linux's default), and a
 * sync after each write (Windows and macOS, which the suite also runs here).
 */
const RECORD_WRITES: Array<[string, boolean]> = [
  ["records written through", true],
  ["records written then synced", false],
];

const segmentFiles = async (directory: string) =>
  (await readdir(directory)).filter((n) => n.endsWith(".log")).sort();

describe.each(RECORD_WRITES)("durable log, %s: appending and reading", (_records, writeThrough) => {
  it("acknowledges concurrent appends once synced and reads them back in order", async () => {
    const log = await open(freshDirectory(), recordingLogger(), { writeThrough });

    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => log.append(`{"n":${i}}`)));

    expect(answers.every((answer) => answer === "appended")).toBe(true);
    expect((await readAll(log)).map((p) => JSON.parse(p).n).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );
    await log.close();
  });

  it("keeps the order of concurrent appends across many small segments, also after a reopen", async () => {
    const directory = freshDirectory();
    const log = await open(directory, recordingLogger(), { segmentBytes: 100, writeThrough });

    const appends: Array<Promise<unknown>> = [];
    for (let wave = 0; wave < 12; wave++) {
      // A new wave arrives while the one before may still be written or synced.
      for (let i = wave * 5; i < wave * 5 + 5; i++) appends.push(log.append(`{"n":${i}}`));
      if (wave > 0) await appends[(wave - 1) * 5];
    }
    await Promise.all(appends);
    await log.close();
    const reopened = await open(directory, recordingLogger(), { segmentBytes: 100, writeThrough });

    expect((await readAll(reopened)).map((p) => JSON.parse(p).n)).toEqual(
      Array.from({ length: 60 }, (_, i) => i),
    );
    expect((await segmentFiles(directory)).length).toBeGreaterThan(1);
    await reopened.close();
  });

  it("hands readers the appended value until every reader is released past it, then reads the disk", async () => {
    const log = await open(freshDirectory(), recordingLogger(), { writeThrough });
    const value = { n: 1 };
    await log.append('{"n":1}', value);

    const [before] = (await log.read(log.start(), 4096)).records;
    log.release(log.end());
    const [after] = (await log.read(log.start(), 4096)).records;

    expect(before?.value).toBe(value);
    expect(after).toEqual({ end: log.end(), payload: '{"n":1}' });
    await log.close();
  });
});

describe.each(RECORD_WRITES)("durable log, %s: crashes and damage", (_records, writeThrough) => {
  it("keeps every acknowledged record when the process dies without closing the log", async () => {
    const directory = freshDirectory();
    const crashed = await open(directory, recordingLogger(), { writeThrough });
    await Promise.all(Array.from({ length: 50 }, (_, i) => crashed.append(`{"n":${i}}`)));

    const reopened = await open(directory, recordingLogger(), { writeThrough });

    expect(await readAll(reopened)).toHaveLength(50);
    await reopened.close();
  });

  it("opens without a WARN after a crash that left the active segment's preallocated zeros", async () => {
    const directory = freshDirectory();
    const crashed = await open(directory, recordingLogger(), { writeThrough });
    await crashed.append('{"n":1}');
    await crashed.append('{"n":2}');
    const [segment] = await segmentFiles(directory);
    const path = join(directory, segment as string);
    expect(await eventually(async () => (await stat(path)).size > crashed.end())).toBe(true);
    const logger = recordingLogger();

    const reopened = await open(directory, logger, { writeThrough });
    await reopened.append('{"n":3}');

    expect(logger.at("warn")).toEqual([]);
    expect(await readAll(reopened)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    await reopened.close();
    expect((await stat(path)).size).toBe(reopened.end());
  });

  it("cuts a torn record off the end with a WARN and appends cleanly after it", async () => {
    const directory = freshDirectory();
    const first = await open(directory, recordingLogger(), { writeThrough });
    await first.append('{"n":1}');
    await first.append('{"n":2}');
    await first.close();
    const [segment] = await segmentFiles(directory);
    await appendFile(join(directory, segment as string), encodeRecord('{"n":"torn"}').subarray(0, 11));
    const logger = recordingLogger();

    const reopened = await open(directory, logger, { writeThrough });
    await reopened.append('{"n":3}');

    expect(logger.at("warn").map((entry) => entry.message)).toEqual([
      expect.stringContaining("torn or corrupt record at the end"),
    ]);
    expect(await readAll(reopened)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    await reopened.close();
    const again = await open(directory, recordingLogger(), { writeThrough });
    expect(await readAll(again)).toHaveLength(3);
    await again.close();
  });

  it("skips a damaged record in a sealed segment with a WARN and reads on in the next segment", async () => {
    const directory = freshDirectory();
    const log = await open(directory, recordingLogger(), { segmentBytes: 100, writeThrough });
    for (let i = 0; i < 12; i++) await log.append(`{"n":${i},"pad":"${"x".repeat(20)}"}`);
    await log.close();
    const [firstSegment] = await segmentFiles(directory);
    const path = join(directory, firstSegment as string);
    const bytes = await readFile(path);
    bytes.writeUInt8((bytes.at(-5) as number) ^ 0xff, bytes.length - 5); // inside the segment's last record
    await writeFile(path, bytes);
    const logger = recordingLogger();

    const reopened = await open(directory, logger, { segmentBytes: 100, writeThrough });
    const numbers = (await readAll(reopened)).map((p) => JSON.parse(p).n);

    expect(numbers.length).toBeGreaterThan(6);
    expect(numbers.at(-1)).toBe(11);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers.length).toBeLessThan(12);
    expect(logger.at("warn").some((entry) => entry.message.includes("skipped a damaged record"))).toBe(true);
    await reopened.close();
  });
});

describe("durable log: destinations' cursors and the disk budget", () => {
  it("deletes a segment only once every destination has written past it", async () => {
    const directory = freshDirectory();
    const log = await open(directory, recordingLogger(), { segmentBytes: 100 });
    for (let i = 0; i < 12; i++) await log.append(`{"n":${i},"pad":"${"x".repeat(20)}"}`);
    const segments = (await segmentFiles(directory)).length;
    expect(segments).toBeGreaterThan(3);

    log.advance("parquet", log.end());
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await segmentFiles(directory)).toHaveLength(segments);
    log.advance("json", log.end());

    expect(await eventually(async () => (await segmentFiles(directory)).length === 1)).toBe(true);
    await log.close();
  });

  it("starts each destination at its own persisted cursor after a reopen", async () => {
    const directory = freshDirectory();
    const log = await open(directory, recordingLogger());
    await log.append('{"n":1}');
    const [first] = (await log.read(log.start(), 4096)).records;
    await log.append('{"n":2}');
    log.advance("parquet", first?.end as number);
    await log.close();

    const reopened = await open(directory, recordingLogger());

    expect(await readAll(reopened, reopened.cursor("parquet"))).toEqual(['{"n":2}']);
    expect(await readAll(reopened, reopened.cursor("json"))).toEqual(['{"n":1}', '{"n":2}']);
    await reopened.close();
  });

  it("refuses appends past maxDiskBytes and takes them again once the destinations caught up", async () => {
    const directory = freshDirectory();
    const log = await open(directory, recordingLogger(), { maxDiskBytes: 1000, segmentBytes: 200 });
    const payload = `{"pad":"${"x".repeat(80)}"}`;
    let appended = 0;
    while ((await log.append(payload)) === "appended") appended += 1;

    expect(appended).toBeGreaterThan(5);
    expect(log.bytesOnDisk()).toBeLessThanOrEqual(1000);
    expect(log.slowest()).toEqual({ destination: "parquet", behindBytes: log.end() });

    log.advance("parquet", log.end());
    log.advance("json", log.end());
    expect(await eventually(async () => (await log.append(payload)) === "appended")).toBe(true);
    await log.close();
  });
});
