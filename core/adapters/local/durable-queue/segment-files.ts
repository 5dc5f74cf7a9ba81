/**
 * The segment files of the durable audit log, side by side in the queue directory. Each is named
 * after the position of its first byte (its base; 20 digits, so names sort as numbers); the last
 * one is active (appended to), the others are sealed. Opening lists them, begins the first one in
 * an empty directory and recovers the active one from a crash (torn-tail.ts). Sealing cuts the
 * active segment back to its records, syncs it and begins the next one. The oldest are deleted
 * once every destination has written them. Readers share one read handle per segment.
 */
import { type FileHandle, open, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../../../ports.ts";
import { retryWhileBusy } from "../busy-file-retry.ts";
import { PRIVATE_FILE_MODE } from "../private-files.ts";
import { syncDirectory } from "../sync-directory.ts";
import { ActiveSegment, type ActiveSegmentOptions } from "./active-segment.ts";
import { deletableSegmentCount } from "./log-positions.ts";
import { recoverTornTail } from "./torn-tail.ts";

const NAME_DIGITS = 20;
const SEGMENT_SUFFIX = ".log";

export function segmentFileName(base: number): string {
  return `${String(base).padStart(NAME_DIGITS, "0")}${SEGMENT_SUFFIX}`;
}

/** The base position a segment file name stands for, or undefined for any other file. */
export function segmentBaseOf(fileName: string): number | undefined {
  const match = /^(\d{20})\.log$/.exec(fileName);
  if (match === null) return undefined;
  const base = Number(match[1]);
  return Number.isSafeInteger(base) ? base : undefined;
}

export interface SegmentFilesOptions extends ActiveSegmentOptions {
  logger: Logger;
}

export class SegmentFiles {
  // Promises, so that readers opening the same segment at once share one handle.
  private readonly readHandles = new Map<number, Promise<FileHandle>>();

  private constructor(
    /** The kept segments' bases, oldest first; the last one is the active segment's. */
    private readonly segmentBases: number[],
    private activeSegment: ActiveSegment,
    private readonly options: SegmentFilesOptions,
  ) {}

  /** Lists the segments, begins the first in an empty directory, recovers and opens the last. */
  static async open(options: SegmentFilesOptions): Promise<SegmentFiles> {
    const { directory } = options;
    const bases = (await readdir(directory))
      .map(segmentBaseOf)
      .filter((base): base is number => base !== undefined)
      .sort((a, b) => a - b);
    if (bases.length === 0) {
      await (await open(join(directory, segmentFileName(0)), "w", PRIVATE_FILE_MODE)).close();
      await syncDirectory(directory);
      bases.push(0);
    }
    const base = bases[bases.length - 1] as number;
    const path = join(directory, segmentFileName(base));
    const recovered = await recoverTornTail(path, segmentFileName(base), options.logger);
    const active = await ActiveSegment.open(path, "r+", base, recovered.validEnd, options);
    try {
      if (recovered.cut) await active.sync();
    } catch (error) {
      await active.close().catch(() => undefined);
      throw error;
    }
    return new SegmentFiles(bases, active, options);
  }

  /** The kept segments' bases, oldest first. */
  get bases(): readonly number[] {
    return this.segmentBases;
  }

  get active(): ActiveSegment {
    return this.activeSegment;
  }

  /** Position of the oldest kept byte. */
  start(): number {
    return this.segmentBases[0] as number;
  }

  /** Seals the active segment (cut back to its records and synced) and begins the next one. */
  async seal(): Promise<void> {
    // A sync started from now on goes to the next segment, so this one is synced as it is sealed.
    const sealed = this.activeSegment;
    await sealed.trim();
    await sealed.sync();
    const base = sealed.writeAt;
    this.activeSegment = await ActiveSegment.open(this.pathOf(base), "w+", base, 0, this.options);
    this.segmentBases.push(base);
    await syncDirectory(this.options.directory);
    await sealed.close(); // after any sync still running on it
  }

  /** Deletes the `count` oldest segments, closing their read handles. */
  async deleteOldest(count: number): Promise<void> {
    for (const base of this.segmentBases.splice(0, count)) {
      const handle = this.readHandles.get(base);
      this.readHandles.delete(base);
      await (await handle)?.close();
      await this.remove(base);
    }
  }

  /** Deletes every sealed segment that ends at or before `position`. */
  deleteWrittenUpTo(position: number): Promise<void> {
    return this.deleteOldest(deletableSegmentCount(this.segmentBases, position));
  }

  /**
   * After a failed write or sync: nothing past `end` counts. Segments begun past it go, and the
   * active one is cut back to it and synced.
   */
  async cutBackTo(end: number): Promise<void> {
    await this.activeSegment.settled();
    while (
      this.segmentBases.length > 1 &&
      (this.segmentBases[this.segmentBases.length - 1] as number) > end
    ) {
      await this.activeSegment.close().catch(() => undefined);
      await this.remove(this.segmentBases.pop() as number);
      const base = this.segmentBases[this.segmentBases.length - 1] as number;
      this.activeSegment = await ActiveSegment.open(this.pathOf(base), "r+", base, end - base, this.options);
    }
    await this.activeSegment.cutBack(end - this.activeSegment.base);
    await this.activeSegment.sync();
  }

  readHandle(base: number): Promise<FileHandle> {
    let handle = this.readHandles.get(base);
    if (handle === undefined) {
      handle = open(this.pathOf(base), "r");
      this.readHandles.set(base, handle);
    }
    return handle;
  }

  /** Closes the read handles, and the active segment cut back to its records and synced. */
  async close(): Promise<void> {
    for (const handle of this.readHandles.values()) await (await handle).close();
    this.readHandles.clear();
    await this.activeSegment.trim();
    await this.activeSegment.sync();
    await this.activeSegment.close();
  }

  /** Deletes a segment's file, tried again while a program holding it refuses (busy-file-retry.ts). */
  private remove(base: number): Promise<void> {
    return retryWhileBusy(() => rm(this.pathOf(base), { force: true }));
  }

  private pathOf(base: number): string {
    return join(this.options.directory, segmentFileName(base));
  }
}
