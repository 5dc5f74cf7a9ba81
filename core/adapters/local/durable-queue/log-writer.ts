/**
 * What the durable audit log's group commit (group-commit.ts) does to the files: it writes a group
 * of records, encoded into one buffer, after the last record of the active segment (first freeing
 * the written log when an append was taken on that condition, see disk-budget.ts, and sealing a
 * full segment); it syncs the active segment; once a group is durable, it moves the end past it,
 * so that readers see it; and after a failed write or sync it undoes what was written but not
 * synced.
 *
 * A full or read-only disk fails appends (the caller answers 503) but never the log: the failed
 * write is undone back to the last synced record, the active segment is sealed (so that a log
 * that filled its disk frees it as soon as every destination has written it), and the next append
 * tries again.
 */
import type { DestinationCursors } from "./destination-cursors.ts";
import type { DiskBudget } from "./disk-budget.ts";
import type { GroupCommitSteps } from "./group-commit.ts";
import type { RecentRecords } from "./recent-records.ts";
import { encodeRecordInto, RECORD_HEADER_BYTES } from "./record-format.ts";
import type { SegmentFiles } from "./segment-files.ts";
import type { SyncedEnd } from "./synced-end.ts";

/** The buffer a group is encoded into, reused from write to write (writes never overlap). */
const WRITE_BUFFER_BYTES = 256 * 1024;

/** One append waiting for its group. */
export interface Appended {
  payload: string;
  /** The record's size: header and UTF-8 payload. */
  bytes: number;
  /** What `payload` encodes, kept in memory for readers that keep up. */
  value: unknown;
}

export interface LogWriterParts {
  files: SegmentFiles;
  end: SyncedEnd;
  budget: DiskBudget;
  cursors: DestinationCursors;
  recent: RecentRecords;
  /** Size at which a segment is sealed and a new one begun. */
  segmentBytes: number;
}

export class LogWriter implements GroupCommitSteps<Appended> {
  private buffer = Buffer.allocUnsafe(WRITE_BUFFER_BYTES);

  constructor(private readonly parts: LogWriterParts) {}

  async write(group: readonly Appended[]): Promise<void> {
    const { files, budget, segmentBytes } = this.parts;
    if (budget.freeRequested()) await this.freeWritten();
    if (files.active.size >= segmentBytes) await files.seal();
    let total = 0;
    for (const appended of group) total += appended.bytes;
    if (this.buffer.length < total) this.buffer = Buffer.allocUnsafe(total);
    let offset = 0;
    for (const { payload, bytes } of group)
      offset = encodeRecordInto(this.buffer, offset, payload, bytes - RECORD_HEADER_BYTES);
    try {
      await files.active.write(this.buffer, total);
    } finally {
      // One large group must not keep a large buffer.
      if (this.buffer.length > WRITE_BUFFER_BYTES) this.buffer = Buffer.allocUnsafe(WRITE_BUFFER_BYTES);
    }
  }

  sync(): Promise<void> {
    // The segment of the moment: sealing a segment syncs it itself.
    return this.parts.files.active.syncRecords();
  }

  durable(group: readonly Appended[]): void {
    const { recent, budget, end } = this.parts;
    let bytes = 0;
    for (const appended of group) bytes += appended.bytes;
    recent.remember(group, end.position);
    budget.settle(bytes);
    end.advance(bytes);
  }

  async recover(): Promise<void> {
    const { files, end, cursors } = this.parts;
    await files.cutBackTo(end.position);
    // Often the disk is full. The active segment is never deleted, so seal it: once every
    // destination has written it, it goes and its space can take new records.
    if (files.active.size > 0) {
      await files.seal();
      cursors.schedulePersist();
    }
  }

  /** Seals the active segment and deletes every segment each destination has written past. */
  private async freeWritten(): Promise<void> {
    const { files, budget, cursors, end } = this.parts;
    try {
      if (files.active.size > 0) await files.seal();
      await files.deleteWrittenUpTo(cursors.slowest()?.position ?? end.position);
    } finally {
      budget.freed();
    }
  }
}
