/**
 * On Linux the durable log writes its records through a handle opened with `O_DSYNC`, so that a
 * group's write returns only once on disk and needs no sync after it. What the process holds open
 * is read from /proc: each descriptor's target and its open flags.
 */
import { constants } from "node:fs";
import { readdir, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDurableLog } from "../../../../../../core/adapters/local/durable-queue/durable-log.ts";
import { systemClock } from "../../../../../../core/system-clock.ts";
import { recordingLogger } from "../../../../../helpers/recording-logger.ts";
import { suiteScratchDirectory } from "../../../../../helpers/suite-scratch-directory.ts";

const scratch = suiteScratchDirectory("steward-written-through-");

interface OpenFile {
  path: string;
  writtenThrough: boolean;
}

/** The files under `directory` this process holds open, with how each descriptor was opened. */
async function openFilesUnder(directory: string): Promise<OpenFile[]> {
  const files: OpenFile[] = [];
  for (const fd of await readdir("/proc/self/fd")) {
    const path = await readlink(`/proc/self/fd/${fd}`).catch(() => "");
    if (!path.startsWith(`${directory}/`)) continue;
    const info = await readFile(`/proc/self/fdinfo/${fd}`, "utf8").catch(() => "");
    const flags = Number.parseInt(/^flags:\s*([0-7]+)/m.exec(info)?.[1] ?? "0", 8);
    files.push({
      path,
      writtenThrough: (flags & constants.O_DSYNC) === constants.O_DSYNC,
    });
  }
  return files;
}

/** A log of small segments after 20 appends, its directory and its active segment's path. */
async function logOfSegments(writeThrough?: boolean) {
  const directory = join(scratch.fresh(), "audit-queue");
  const log = await openDurableLog({
    directory,
    destinations: ["parquet"],
    maxDiskBytes: 1024 * 1024,
    segmentBytes: 200,
    cursorSyncMs: 1,
    clock: systemClock,
    logger: recordingLogger(),
    ...(writeThrough === undefined ? {} : { writeThrough }),
  });
  for (let i = 0; i < 20; i++) await log.append(`{"n":${i},"pad":"${"x".repeat(40)}"}`);
  const segments = (await readdir(directory)).filter((name) => name.endsWith(".log")).sort();
  return { log, directory, segments, active: join(directory, segments[segments.length - 1] as string) };
}

describe.runIf(process.platform === "linux")("durable log: records written through on Linux", () => {
  it("writes records through an O_DSYNC handle of the active segment alone, and closes every handle", async () => {
    const { log, directory, segments, active } = await logOfSegments();

    const held = await openFilesUnder(directory);
    await log.close();

    expect(segments.length).toBeGreaterThan(3);
    expect(held.filter((file) => file.writtenThrough)).toEqual([{ path: active, writtenThrough: true }]);
    expect(await openFilesUnder(directory)).toEqual([]);
  });

  it("opens no O_DSYNC handle when told to sync after each write, as on Windows and macOS", async () => {
    const { log, directory, active } = await logOfSegments(false);

    const held = await openFilesUnder(directory);
    await log.close();

    expect(held.filter((file) => file.path === active)).toEqual([{ path: active, writtenThrough: false }]);
    expect(held.filter((file) => file.writtenThrough)).toEqual([]);
  });
});
