/**
 * The durable log reopened with another selection of destinations, on a real directory: where
 * each destination starts, what the manifest and the cursor files say afterwards, what is logged,
 * and what a crash between the steps of opening leaves.
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type DurableLog,
  openDurableLog,
} from "../../../../../../core/adapters/local/durable-queue/durable-log.ts";
import { systemClock } from "../../../../../../core/system-clock.ts";
import { type RecordingLogger, recordingLogger } from "../../../../../helpers/recording-logger.ts";
import { suiteScratchDirectory } from "../../../../../helpers/suite-scratch-directory.ts";

const scratch = suiteScratchDirectory("steward-segment-log-selection-");

const freshDirectory = () => join(scratch.fresh(), "audit-queue");

function open(
  directory: string,
  destinations: readonly string[],
  logger: RecordingLogger = recordingLogger(),
) {
  return openDurableLog({
    directory,
    destinations,
    maxDiskBytes: 1024 * 1024,
    segmentBytes: 200,
    cursorSyncMs: 1,
    clock: systemClock,
    logger,
  });
}

/** Appends `count` records of about 60 bytes. */
async function appendRecords(log: DurableLog, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await log.append(`{"n":${i},"pad":"${"x".repeat(40)}"}`);
}

const manifestOf = async (directory: string) =>
  JSON.parse(await readFile(join(directory, "destinations.json"), "utf8")) as { destinations: string[] };

const cursorFilesOf = async (directory: string) => (await readdir(join(directory, "cursors"))).sort();

const messages = (logger: RecordingLogger, level: "warn" | "info") =>
  logger.at(level).map((entry) => ({ message: entry.message, ...entry.fields }));

describe("durable log: which destinations read it, as selections change", () => {
  it("starts a destination selected for the first time at the end, with a cursor file and the manifest naming it", async () => {
    const directory = freshDirectory();
    const first = await open(directory, ["parquet"]);
    await appendRecords(first, 5);
    const end = first.end();
    await first.close();
    const logger = recordingLogger();

    const reopened = await open(directory, ["parquet", "json"], logger);

    expect(reopened.cursor("json")).toBe(end);
    expect(reopened.cursor("parquet")).toBe(reopened.start());
    expect((await manifestOf(directory)).destinations).toEqual(["parquet", "json"]);
    expect(await cursorFilesOf(directory)).toEqual(["json.json", "parquet.json"]);
    expect(messages(logger, "info")).toEqual([
      expect.objectContaining({
        message: expect.stringContaining("selected for the first time"),
        destination: "json",
      }),
    ]);
    expect(logger.at("warn")).toEqual([]);
    await reopened.close();
  });

  it("drops a destination no longer selected: one WARN with what it leaves unwritten, its cursor file and the segments only it held go", async () => {
    const directory = freshDirectory();
    const first = await open(directory, ["parquet", "json"]);
    await appendRecords(first, 20);
    first.advance("json", first.end());
    const behind = first.end() - first.start();
    await first.close();
    const segmentsBefore = (await readdir(directory)).filter((name) => name.endsWith(".log")).length;
    const logger = recordingLogger();

    const reopened = await open(directory, ["json"], logger);

    expect(messages(logger, "warn")).toEqual([
      expect.objectContaining({
        message: expect.stringContaining("no longer selected"),
        destination: "parquet",
        unwrittenBytes: behind,
      }),
    ]);
    expect(await cursorFilesOf(directory)).toEqual(["json.json"]);
    expect((await manifestOf(directory)).destinations).toEqual(["json"]);
    expect(segmentsBefore).toBeGreaterThan(2);
    expect((await readdir(directory)).filter((name) => name.endsWith(".log"))).toHaveLength(1);
    expect(reopened.slowest()).toEqual({ destination: "json", behindBytes: 0 });
    await reopened.close();
  });

  it("starts a destination selected again after it was dropped at the end, not at its old cursor", async () => {
    const directory = freshDirectory();
    const first = await open(directory, ["parquet", "json"]);
    await appendRecords(first, 3);
    await first.close();
    await (await open(directory, ["json"])).close();

    const again = await open(directory, ["parquet", "json"]);

    expect(again.cursor("parquet")).toBe(again.end());
    expect(again.cursor("json")).toBe(again.start());
    await again.close();
  });

  it("reads the log again from its oldest record for a known destination whose cursor file is gone, with a WARN", async () => {
    const directory = freshDirectory();
    const first = await open(directory, ["parquet", "json"]);
    await appendRecords(first, 3);
    first.advance("json", first.end());
    first.advance("parquet", first.end());
    await first.close();
    await rm(join(directory, "cursors", "json.json"));
    const logger = recordingLogger();

    const reopened = await open(directory, ["parquet", "json"], logger);

    expect(reopened.cursor("json")).toBe(reopened.start());
    expect(reopened.cursor("parquet")).toBe(reopened.end());
    expect(messages(logger, "warn")).toEqual([
      expect.objectContaining({ message: expect.stringContaining("cursor"), destination: "json" }),
    ]);
    // Written back at once: the next start resumes there without a WARN.
    expect(await cursorFilesOf(directory)).toEqual(["json.json", "parquet.json"]);
    await reopened.close();
    const quiet = recordingLogger();
    await (await open(directory, ["parquet", "json"], quiet)).close();
    expect(quiet.at("warn")).toEqual([]);
  });
});

describe("durable log: which destinations read it, from older logs and damaged manifests", () => {
  it("opens a log of the version before manifests: destinations with a cursor file resume, the others start at the end", async () => {
    const directory = freshDirectory();
    const first = await open(directory, ["parquet", "json"]);
    await appendRecords(first, 3);
    first.advance("parquet", first.end() - 10);
    await first.close();
    await rm(join(directory, "destinations.json"));
    await rm(join(directory, "cursors", "json.json"));
    const logger = recordingLogger();

    const reopened = await open(directory, ["parquet", "json"], logger);

    expect(reopened.cursor("parquet")).toBe(reopened.end() - 10);
    expect(reopened.cursor("json")).toBe(reopened.end());
    expect((await manifestOf(directory)).destinations).toEqual(["parquet", "json"]);
    expect(logger.at("warn")).toEqual([]);
    await reopened.close();
  });

  it("gives every selected destination the whole log of that version when it has no cursor file at all", async () => {
    const directory = freshDirectory();
    const first = await open(directory, ["parquet"]);
    await appendRecords(first, 3);
    await first.close();
    await rm(join(directory, "destinations.json"));
    await rm(join(directory, "cursors"), { recursive: true });

    const reopened = await open(directory, ["parquet", "json"]);

    expect(reopened.cursor("parquet")).toBe(reopened.start());
    expect(reopened.cursor("json")).toBe(reopened.start());
    expect(reopened.end()).toBeGreaterThan(reopened.start());
    await reopened.close();
  });

  it("ignores what a crash while opening left: a half-written manifest beside it and a cursor file it no longer names", async () => {
    const directory = freshDirectory();
    const first = await open(directory, ["json"]);
    await appendRecords(first, 3);
    await first.close();
    await writeFile(join(directory, "destinations.json.tmp"), '{"destinations":["json","par');
    await writeFile(join(directory, "cursors", "parquet.json"), JSON.stringify({ position: 0 }));

    const reopened = await open(directory, ["parquet", "json"]);

    expect(reopened.cursor("parquet")).toBe(reopened.end());
    expect((await manifestOf(directory)).destinations).toEqual(["parquet", "json"]);
    await reopened.close();
  });

  it("says so when the manifest cannot be read, and goes by the cursor files", async () => {
    const directory = freshDirectory();
    const first = await open(directory, ["parquet", "json"]);
    await appendRecords(first, 3);
    await first.close();
    await writeFile(join(directory, "destinations.json"), "not json");
    const logger = recordingLogger();

    const reopened = await open(directory, ["parquet", "json"], logger);

    expect(messages(logger, "warn")).toEqual([
      expect.objectContaining({ message: expect.stringContaining("list of destinations cannot be read") }),
    ]);
    expect(reopened.cursor("parquet")).toBe(reopened.start());
    expect((await manifestOf(directory)).destinations).toEqual(["parquet", "json"]);
    await reopened.close();
  });

  it("refuses to open, with the OS's reason, while the manifest cannot be written, and opens once it can", async () => {
    const directory = freshDirectory();
    await (await open(directory, ["json"])).close();
    await rm(join(directory, "destinations.json"));
    await mkdir(join(directory, "destinations.json", "in-the-way"), { recursive: true });

    const refused = await open(directory, ["json", "parquet"]).catch((error: unknown) => error);
    await rm(join(directory, "destinations.json"), { recursive: true });
    const reopened = await open(directory, ["json", "parquet"]);

    expect(String(refused)).toMatch(/EISDIR|ENOTEMPTY|EEXIST/);
    expect((await manifestOf(directory)).destinations).toEqual(["json", "parquet"]);
    await reopened.close();
  });
});
