/**
 * The segment the durable audit log appends to. It is zero-filled ahead of its last record (up to
 * PREALLOCATE_BYTES, in the background, synced), so that a group's write lands on blocks that are
 * already allocated, in a file whose size is already on disk: its `fdatasync` then only writes
 * data, with no journal commit (ext4 here: p50 0.13 ms instead of 0.27 ms idle, and steady under
 * CPU load, where a journal commit waits for its kernel thread to be scheduled). Trimming cuts it
 * back to its records (when it is sealed, when the log closes, after a failed write). The zeros
 * count towards neither `maxDiskBytes` nor the log. Where less than three times that is free, or
 * the zeros fail, the segment grows as it is written.
 */
import { type FileHandle, statfs } from "node:fs/promises";

/** How far ahead of the last record the active segment is zero-filled (at most to `segmentBytes`). */
const PREALLOCATE_BYTES = 4 * 1024 * 1024;
const ZEROS = Buffer.alloc(64 * 1024);

export interface ActiveSegmentOptions {
  /** The queue directory, whose free space decides whether zero-filling is worth it. */
  directory: string;
  /** Size at which the segment is sealed: it is never zero-filled past it. */
  segmentBytes: number;
}

export class ActiveSegment {
  /** Size of the file: its records, then zeros up to here. */
  private allocated: number;
  /** Zero-filling past `allocated`, while it runs. */
  private extending: Promise<void> | undefined;
  /** Zero-filling failed (the disk is nearly full): this segment grows as it is written. */
  private zeroFillFailed = false;
  private readonly preallocateBytes: number;

  constructor(
    private readonly handle: FileHandle,
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
    // A short write (the disk filled up) goes on with the rest, which fails with the OS's reason.
    for (let done = 0; done < total; ) {
      const { bytesWritten } = await this.handle.write(buffer, done, total - done, this.recordBytes + done);
      if (bytesWritten === 0)
        throw new Error(`short write to the audit event log (${done} of ${total} bytes)`);
      done += bytesWritten;
    }
    this.recordBytes += total;
    this.allocated = Math.max(this.allocated, this.recordBytes);
    if (this.extending === undefined && this.allocated - this.recordBytes < this.preallocateBytes / 2)
      this.preallocate();
  }

  /** Makes everything written to this segment so far durable. */
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

  close(): Promise<void> {
    return this.handle.close();
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
