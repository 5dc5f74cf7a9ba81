/**
 * A read of the durable audit log: synced records from a position, up to about `maxBytes`, all
 * from one segment. A reader that keeps up gets the values appended, from memory
 * (recent-records.ts); one further behind reads its segment from disk and decodes it. A damaged
 * record met there is skipped with a WARN, with the rest of its segment (nothing after it can be
 * framed).
 */
import type { Logger } from "../../../ports.ts";
import { segmentIndexOf } from "./log-positions.ts";
import type { RecentRecords } from "./recent-records.ts";
import { decodeRecords, RECORD_HEADER_BYTES } from "./record-format.ts";
import { type SegmentFiles, segmentFileName } from "./segment-files.ts";
import type { SyncedEnd } from "./synced-end.ts";

export interface LogRecord {
  /** The position just past this record: the cursor once it is written. */
  end: number;
  /** The record as read from disk; absent when `value` came from memory. */
  payload?: string;
  /** The value appended with the record, while it is still among the recent ones in memory. */
  value?: unknown;
}

export interface ReadResult {
  records: LogRecord[];
  /** Where the next read starts. */
  next: number;
}

export interface LogReadSource {
  files: SegmentFiles;
  end: SyncedEnd;
  recent: RecentRecords;
  logger: Logger;
}

export async function readLog(source: LogReadSource, from: number, maxBytes: number): Promise<ReadResult> {
  const { files, recent, logger } = source;
  const committedEnd = source.end.position;
  const bases = files.bases;
  const position = Math.max(from, files.start());
  if (position >= committedEnd) return { records: [], next: position };
  const inMemory = recent.from(position, committedEnd, maxBytes);
  if (inMemory.length > 0)
    return { records: inMemory, next: (inMemory[inMemory.length - 1] as LogRecord).end };
  const index = segmentIndexOf(bases, position);
  const base = bases[index] as number;
  // A later segment may already hold records not yet synced, past the end.
  const segmentEnd = Math.min(
    index + 1 < bases.length ? (bases[index + 1] as number) : committedEnd,
    committedEnd,
  );
  const want = Math.min(maxBytes, segmentEnd - position);
  const buffer = Buffer.allocUnsafe(want);
  const { bytesRead } = await (await files.readHandle(base)).read(buffer, 0, want, position - base);
  const decoded = decodeRecords(buffer.subarray(0, bytesRead));
  if (decoded.records.length > 0) {
    return {
      records: decoded.records.map((record) => ({ end: position + record.end, payload: record.payload })),
      next: position + decoded.validEnd,
    };
  }
  if (decoded.stop === "partial" && bytesRead === want && want < segmentEnd - position && bytesRead >= 4) {
    // One record larger than maxBytes: read exactly that record.
    return readLog(source, position, RECORD_HEADER_BYTES + buffer.readUInt32LE(0));
  }
  logger.warn("Audit event queue: skipped a damaged record and the rest of its segment", {
    segment: segmentFileName(base),
    offset: position - base,
    bytesSkipped: segmentEnd - position,
  });
  return { records: [], next: segmentEnd };
}
