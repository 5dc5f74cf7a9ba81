/**
 * The segment the durable audit log appends to. It is zero-filled ahead of its last record (up to
 * PREALLOCATE_BYTES, in the background, synced), so that a group's write lands on blocks that are
 * already allocated, in a file whose size is already on disk: its sync then only writes data, with
 * no journal commit (ext4 here: p50 0.13 ms instead of 0.27 ms idle, and steady under CPU load,
 * where a journal commit waits for its kernel thread to be scheduled). Trimming cuts it back to its
 * records (when it is sealed, when the log closes, after a failed write). The zeros count towards
 * neither `maxDiskBytes` nor the log. Where less than three times that is free, or the zeros fail,
 * the segment grows as it is written.
 *
 * Records are written through on Linux: the segment is open a second time with `O_DSYNC`, records
 * are written through that handle, and each group's write returns only once its records are on
 * disk, by the same path in the kernel as a write followed by `fdatasync`. That is one call to
 * Node's thread pool per group instead of two, and the sync no longer waits for the main thread,
 * busy answering requests, to see the write's end before it can start: under load the 202s come
 * sooner (docs/performance.md, "Records written through"). Elsewhere a group is written and then
 * synced: Node on Windows has no `O_DSYNC` (the sync is `FlushFileBuffers`), and on macOS Node's
 * sync also empties the drive's cache (`F_FULLFSYNC`), which `O_DSYNC` does not. The zeros, and the
 * file's size after a trim, are made durable by a sync of the first handle.
 */
import { constants } from "node:fs";
import { type FileHandle, open, statfs } from "node:fs/promises";
import { PRIVATE_FILE_MODE } from "../private-files.ts";

/** How far ahead of the last record the active segment is zero-filled (at most to `segmentBytes`). */
const PREALLOCATE_BYTES = 4 * 1024 * 1024;
const ZEROS = Buffer.alloc(64 * 1024);

export interface ActiveSegmentOptions {
  /** The queue directory, whose free space decides whether zero-filling is worth it. */
  directory: string;
  /** Size at which the segment is sealed: it is never zero-filled past it. */
  segmentBytes: number;
  /**
   * Whether records are written through where the platform allows it, Linux (default true);
   * false: a sync follows each write, as on the other platforms. The tests run both ways on Linux.
   */
  writeThrough?: boolean | undefined;
}

/** Opens a segment's file for records written through, on Linux (see above). */
function openWrittenThrough(path: string, options: ActiveSegmentOptions): Promise<FileHandle> | undefined {
  return process.platform === "linux" && options.writeThrough !== false
    ? open(path, constants.O_WRONLY | constants.O_DSYNC)
    : undefined;
}

export class ActiveSegment {
  /** Size of the file: its records, then zeros up to here. */
  private allocated: number;
  /** Zero-filling past `allocated`, while it runs. */
  private extending: Promise<void> | undefined;
  /** Zero-filling failed (the disk is nearly full): this segment grows as it is written. */
  private zeroFillFailed = false;
  private readonly preallocateBytes: number;

  /**
   * Opens the segment at `path` ("r+" an existing one, "w+" a new one, created private): the handle
   * that zero-fills, trims and syncs it, and the one its records are written through, if any.
   */
  static async open(
    path: string,
    flags: "r+" | "w+",
    base: number,
    recordBytes: number,
    options: ActiveSegmentOptions,
  ): Promise<ActiveSegment> {
    const handle = await open(path, flags, PRIVATE_FILE_MODE);
    try {
      const writtenThrough = await openWrittenThrough(path, options);
      return new ActiveSegment(handle, writtenThrough, base, recordBytes, options);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  private constructor(
    private readonly handle: FileHandle,
    /** Records are written through this handle (`O_DSYNC`) when there is one. */
    private readonly writtenThrough: FileHandle | undefined,
    /** Position of the segment's first byte. */
    readonly base: number,
    /** Bytes of records in the file, including records written but not yet synced. */
    private recordBytes: number,
    private readonly options: ActiveSegmentOptions,
  ) {
    this.allocated = recordBytes;
    this.preallocateBytes = Math.min(PREALLOCATE_BYTES, options.segmentBytes);
  }

  get size(): number {
    return this.recordBytes;
  }

  /** The position the next record goes to. */
  get writeAt(): number {
    return this.base + this.recordBytes;
  }

  /** Writes `total` bytes of `buffer` after the last record. */
  async write(buffer: Buffer, total: number): Promise<void> {
    // Never into zeros still being written.
    if (this.extending !== undefined && this.recordBytes + total > this.allocated) await this.extending;
    const target = this.writtenThrough ?? this.handle;
    // A short write (the disk filled up) goes on with the rest, which fails with the OS's reason.
    for (let done = 0; done < total; ) {
      const { bytesWritten } = await target.write(buffer, done, total - done, this.recordBytes + done);
      if (bytesWritten === 0)
        throw new Error(`short write to the audit event log (${done} of ${total} bytes)`);
      done += bytesWritten;
    }
    this.recordBytes += total;
    this.allocated = Math.max(this.allocated, this.recordBytes);
    if (this.extending === undefined && this.allocated - this.recordBytes < this.preallocateBytes / 2)
      this.preallocate();
  }

  /**
   * Makes every record written so far durable: nothing left to do when they were written through
   * (each write returned once on disk).
   */
  syncRecords(): Promise<void> {
    return this.writtenThrough === undefined ? this.handle.datasync() : Promise.resolve();
  }

  /** Makes the whole file durable as it is now: its records, its zeros and its size. */
  sync(): Promise<void> {
    return this.handle.datasync();
  }

  /** Resolves once no zero-filling runs. */
  async settled(): Promise<void> {
    if (this.extending !== undefined) await this.extending;
  }

  /** Cuts the file back to its records (zeros and anything not synced go). */
  async trim(): Promise<void> {
    await this.settled();
    await this.handle.truncate(this.recordBytes);
    this.allocated = this.recordBytes;
  }

  /** After a failed write or sync: only the first `recordBytes` bytes count, the rest is cut off. */
  async cutBack(recordBytes: number): Promise<void> {
    this.recordBytes = recordBytes;
    await this.trim();
  }

  async close(): Promise<void> {
    try {
      await this.writtenThrough?.close();
    } finally {
      await this.handle.close();
    }
  }

  /** Zero-fills the file from `allocated` on, in the background, and syncs that. */
  private preallocate(): void {
    const from = this.allocated;
    const to = Math.min(from + this.preallocateBytes, this.options.segmentBytes);
    if (to <= from || this.zeroFillFailed) return;
    this.extending = this.zeroFill(from, to)
      // Without the zeros the log still works: appends then grow the file, as they would anyway.
      // On a nearly full disk, the zeros written go again (they would hold the space the cursor
      // files need) and this segment is not zero-filled again (that would be a loop).
      .catch(() => {
        this.zeroFillFailed = true;
        return this.handle.truncate(from);
      })
      .catch(() => undefined)
      .finally(() => {
        this.extending = undefined;
      });
  }

  private async zeroFill(from: number, to: number): Promise<void> {
    // Not on a nearly full disk: the zeros would take the space the cursor files need.
    const { bavail, bsize } = await statfs(this.options.directory);
    if (bavail * bsize < (to - from) * 3) throw new Error("too little free space to zero-fill");
    for (let at = from; at < to; at += ZEROS.length)
      await this.handle.write(ZEROS, 0, Math.min(ZEROS.length, to - at), at);
    await this.handle.datasync();
    this.allocated = Math.max(this.allocated, to);
  }
}
