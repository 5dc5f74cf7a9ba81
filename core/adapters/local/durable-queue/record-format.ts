/**
 * The record format of the durable audit log: `[length u32 LE][crc32 u32 LE][payload]`, the
 * payload being the UTF-8 JSON of one accepted event. The checksum (zlib's CRC-32 of the
 * payload) tells a record torn by a crash mid-write, or damaged on disk, from a good one; the
 * length lets a reader skip from record to record without parsing JSON.
 */
import { crc32 } from "node:zlib";

export const RECORD_HEADER_BYTES = 8;
/** Larger lengths can only come from damage: no event is allowed near this size. */
export const MAX_RECORD_PAYLOAD_BYTES = 64 * 1024 * 1024;

export function encodeRecord(payload: string): Buffer {
  const length = Buffer.byteLength(payload);
  const record = Buffer.allocUnsafe(RECORD_HEADER_BYTES + length);
  encodeRecordInto(record, 0, payload, length);
  return record;
}

/**
 * Encodes a record into `target` at `offset` (`payloadBytes` is the payload's UTF-8 length, as
 * Buffer.byteLength gives it) and returns the offset just past it: a group of records becomes
 * one buffer without a buffer per record.
 */
export function encodeRecordInto(
  target: Buffer,
  offset: number,
  payload: string,
  payloadBytes: number,
): number {
  const start = offset + RECORD_HEADER_BYTES;
  const end = start + payloadBytes;
  target.write(payload, start, payloadBytes, "utf8");
  target.writeUInt32LE(payloadBytes, offset);
  target.writeUInt32LE(crc32(target.subarray(start, end)), offset + 4);
  return end;
}

export interface DecodedRecord {
  /** Offset of the record's first byte, relative to the decoded buffer's start. */
  offset: number;
  /** Offset just past the record. */
  end: number;
  payload: string;
}

/**
 * Why decoding stopped: "end" (the buffer ended at a record boundary), "partial" (the buffer
 * ends inside a record: read more, or, at the end of the log, a torn tail), "corrupt" (a record
 * whose length is impossible or whose checksum does not match).
 */
export type DecodeStop = "end" | "partial" | "corrupt";

export interface DecodeResult {
  records: DecodedRecord[];
  /** Offset just past the last good record: where the next read (or the valid log) starts. */
  validEnd: number;
  stop: DecodeStop;
}

/** Decodes the whole records at the start of `buffer`, up to `maxRecords`. */
export function decodeRecords(buffer: Uint8Array, maxRecords = Number.POSITIVE_INFINITY): DecodeResult {
  const view = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const records: DecodedRecord[] = [];
  let offset = 0;
  while (records.length < maxRecords) {
    if (offset === view.length) return { records, validEnd: offset, stop: "end" };
    if (offset + RECORD_HEADER_BYTES > view.length) return { records, validEnd: offset, stop: "partial" };
    const length = view.readUInt32LE(offset);
    if (length === 0 || length > MAX_RECORD_PAYLOAD_BYTES)
      return { records, validEnd: offset, stop: "corrupt" };
    const end = offset + RECORD_HEADER_BYTES + length;
    if (end > view.length) return { records, validEnd: offset, stop: "partial" };
    const body = view.subarray(offset + RECORD_HEADER_BYTES, end);
    if (crc32(body) !== view.readUInt32LE(offset + 4)) return { records, validEnd: offset, stop: "corrupt" };
    records.push({ offset, end, payload: body.toString("utf8") });
    offset = end;
  }
  return { records, validEnd: offset, stop: "end" };
}
