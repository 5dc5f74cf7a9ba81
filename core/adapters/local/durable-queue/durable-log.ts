/**
 * The durable audit log on disk, tied together from its pieces in this folder: segment files under
 * one directory (segment-files.ts: `<position>.log`, records as record-format.ts encodes them), one
 * cursor file per selected destination and the manifest of the destinations the log is written
 * for (open-destination-cursors.ts decides at opening where each selected destination starts,
 * drops the cursors of those no longer selected and deletes what only they held). One writer
 * appends; concurrent appends share one write, made durable by writing through (`O_DSYNC`, on
 * Linux) or by an `fdatasync` after it (active-segment.ts). Group commit (group-commit.ts) gathers
 * the groups and, where a sync follows, writes the next group while the previous one syncs;
 * log-writer.ts does the writing. An append resolves only once its record is on disk
 * (synced-end.ts). A segment is sealed when it reaches `segmentBytes` and deleted once every
 * destination's persisted cursor lies past it (destination-cursors.ts). The log refuses appends
 * past `maxDiskBytes` (disk-budget.ts). Readers read synced records from any position
 * (log-reading.ts). One process owns the directory.
 *
 * Opening recovers from a crash (torn-tail.ts): a torn record at the end of the last segment was
 * never synced, so never acknowledged, and is cut off.
 */

import type { Clock, Logger } from "../../../ports.ts";
import { makePrivateDirectory } from "../private-files.ts";
import { cursorDirectory } from "./cursor-files.ts";
import { DestinationCursors } from "./destination-cursors.ts";
import { DiskBudget } from "./disk-budget.ts";
import { createGroupCommit, type GroupCommit } from "./group-commit.ts";
import { bytesOnDisk, slowestCursor } from "./log-positions.ts";
import { type LogReadSource, type ReadResult, readLog } from "./log-reading.ts";
import { type Appended, LogWriter } from "./log-writer.ts";
import { openDestinationCursors } from "./open-destination-cursors.ts";
import { RecentRecords } from "./recent-records.ts";
import { RECORD_HEADER_BYTES } from "./record-format.ts";
import { SegmentFiles } from "./segment-files.ts";
import { SyncedEnd } from "./synced-end.ts";

export type { LogRecord, ReadResult } from "./log-reading.ts";

export interface DurableLogOptions {
  directory: string;
  /** The selected destinations: each keeps a cursor, and only they hold segments back. */
  destinations: readonly string[];
  maxDiskBytes: number;
  /** Size at which a segment is sealed and a new one begun (default: maxDiskBytes / 8, at most 64 MiB). */
  segmentBytes?: number;
  /** Records written through `O_DSYNC` on Linux (default true); false: a sync after each write. */
  writeThrough?: boolean;
  /** Longest time a moved cursor waits before it is written to disk (default 1000 ms). */
  cursorSyncMs?: number;
  clock: Clock;
  logger: Logger;
}

/**
 * "full": the record does not fit next to what the destinations have not all written yet;
 * "too-large": it is larger than `maxDiskBytes` and never fits.
 */
export type AppendResult = "appended" | "full" | "too-large";

export interface DurableLog {
  /** Position just past the last synced record. */
  end(): number;
  /** Position of the oldest kept byte. */
  start(): number;
  bytesOnDisk(): number;
  readonly maxDiskBytes: number;
  /**
   * Appends one record; resolves once it is synced, or "full" / "too-large" (nothing written).
   * `value` (what `payload` encodes) is kept in memory for a while, so readers that keep up need
   * not read the disk and decode.
   */
  append(payload: string, value?: unknown): Promise<AppendResult>;
  /** Whether an append of a record of `recordBytes` (header included) would be taken now. */
  wouldTake(recordBytes: number): boolean;
  /** Synced records from `from`, up to about `maxBytes`, all from one segment. */
  read(from: number, maxBytes: number): Promise<ReadResult>;
  /**
   * Every reader is at or past `position`: the values of the records before it need not stay in
   * memory any longer (they would otherwise live until newer ones pushed them out).
   */
  release(position: number): void;
  /** Resolves once the end moves past `position`, the log closes, or `wakeWaiters` is called. */
  waitForEnd(position: number): Promise<void>;
  /** Resolves every pending `waitForEnd` now (their callers look again). */
  wakeWaiters(): void;
  cursor(destination: string): number;
  /** Moves a destination's cursor forward (never back); persisted within `cursorSyncMs`. */
  advance(destination: string, position: number): void;
  /** The destination furthest behind, and by how many bytes. */
  slowest(): { destination: string; behindBytes: number } | undefined;
  /** Persists every cursor, deletes what every destination has written, releases the files. */
  close(): Promise<void>;
}

const MAX_SEGMENT_BYTES = 64 * 1024 * 1024;

export async function openDurableLog(options: DurableLogOptions): Promise<DurableLog> {
  const { directory, clock, logger, maxDiskBytes } = options;
  const segmentBytes =
    options.segmentBytes ?? Math.max(64 * 1024, Math.min(MAX_SEGMENT_BYTES, Math.floor(maxDiskBytes / 8)));
  const cursorDir = cursorDirectory(directory);
  // The queue directory holds only the log's own files: private, as they are (private-files.ts).
  await makePrivateDirectory(directory);
  await makePrivateDirectory(cursorDir);
  const files = await SegmentFiles.open({
    directory,
    segmentBytes,
    logger,
    writeThrough: options.writeThrough,
  });
  const end = new SyncedEnd(files.active.writeAt);
  let opened: Map<string, number>;
  try {
    opened = await openDestinationCursors({
      directory,
      cursorDirectory: cursorDir,
      selected: options.destinations,
      start: files.start(),
      end: end.position,
      logger,
    });
    // What only destinations no longer selected held goes now, not at the first write after.
    await files.deleteWrittenUpTo(slowestCursor(opened)?.position ?? end.position);
  } catch (error) {
    // Not opened (the caller tries again later): the segment's handle must not leak.
    await files.active.close();
    throw error;
  }
  const cursors = new DestinationCursors({
    directory: cursorDir,
    opened,
    syncMs: options.cursorSyncMs ?? 1000,
    end,
    files,
    clock,
    logger,
  });
  const budget = new DiskBudget(maxDiskBytes, end, files, cursors);
  return new OpenDurableLog({
    files,
    end,
    cursors,
    budget,
    recent: new RecentRecords(),
    segmentBytes,
    logger,
  });
}

interface LogParts extends LogReadSource {
  cursors: DestinationCursors;
  budget: DiskBudget;
  segmentBytes: number;
}

class OpenDurableLog implements DurableLog {
  readonly maxDiskBytes: number;
  private readonly commit: GroupCommit<Appended>;
  private closed = false;

  constructor(private readonly parts: LogParts) {
    this.maxDiskBytes = parts.budget.maxDiskBytes;
    this.commit = createGroupCommit<Appended>(new LogWriter(parts));
  }

  end(): number {
    return this.parts.end.position;
  }

  start(): number {
    return this.parts.files.start();
  }

  bytesOnDisk(): number {
    return bytesOnDisk(this.parts.files.bases, this.parts.end.position);
  }

  async append(payload: string, value?: unknown): Promise<AppendResult> {
    if (this.closed) throw new Error("the audit event log is closed");
    const { budget } = this.parts;
    const bytes = RECORD_HEADER_BYTES + Buffer.byteLength(payload);
    const admitted = budget.admission(bytes);
    if (admitted === "full" || admitted === "too-large") return admitted;
    budget.take(bytes, admitted); // until durable (the writer's `durable`) or failed
    try {
      await this.commit.submit({ payload, bytes, value });
    } catch (error) {
      budget.settle(bytes);
      throw error;
    }
    return "appended";
  }

  wouldTake(recordBytes: number): boolean {
    const admitted = this.parts.budget.admission(recordBytes);
    return admitted === "fits" || admitted === "fits-once-freed";
  }

  read(from: number, maxBytes: number): Promise<ReadResult> {
    return readLog(this.parts, from, maxBytes);
  }

  release(position: number): void {
    this.parts.recent.release(position);
  }

  waitForEnd(position: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.parts.end.waitPast(position);
  }

  wakeWaiters(): void {
    this.parts.end.wakeAll();
  }

  cursor(destination: string): number {
    return this.parts.cursors.get(destination) ?? this.parts.files.start();
  }

  advance(destination: string, position: number): void {
    this.parts.cursors.advance(destination, position);
  }

  slowest(): { destination: string; behindBytes: number } | undefined {
    const slowest = this.parts.cursors.slowest();
    return slowest === undefined
      ? undefined
      : { destination: slowest.destination, behindBytes: this.parts.end.position - slowest.position };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.parts.end.wakeAll();
    this.parts.cursors.stop();
    await this.commit.idle();
    await this.parts.cursors.flush();
    await this.parts.files.close();
  }
}
