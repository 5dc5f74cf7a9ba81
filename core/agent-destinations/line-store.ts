/**
 * Points waiting for their write to the time-series DB, kept as encoded line protocol (UTF-8)
 * outside the JS heap, and the request body of a batch of them.
 *
 * Why: a point buffered as objects (tags, fields, the substrings of its datagram and the event's
 * JSON) took about 2.5 KB of JS heap, lived past two young-generation collections and so was
 * promoted to the old generation; at 10,000 events/s that was 25 MB/s of old-generation garbage,
 * and V8 let the heap grow to three or four times its live size between full collections (peak
 * RSS 290–330 MB into InfluxDB). Here a point costs one small handle on the heap; its ~1.4 KB of
 * line sit in fixed-size chunks that are reused once every line in them is written, and the body
 * of a batch is copied into one buffer reused from batch to batch. So nothing per point outlives
 * its datagram's processing on the heap, and the bytes outside it are bounded by what is
 * buffered, without garbage.
 *
 * The lines are exactly encodePoint's, and a body is them joined by "\n": the same bytes as
 * encodePoints would send. encodePoint checks each line to be read by InfluxDB as exactly one
 * line, so a body of them splits into as many lines as points; a point that fails is refused
 * when it is added, never buffered.
 */
import { encodePoint, type Point } from "../shared/line-protocol.ts";

/** One encoded point: where its bytes are. Released exactly once (written, refused or dropped). */
export interface StoredLine {
  readonly chunk: Chunk;
  readonly start: number;
  readonly end: number;
}

interface Chunk {
  readonly bytes: Buffer;
  used: number;
  /** Lines in this chunk not yet released. */
  lines: number;
}

export interface LineStoreOptions {
  /** Bytes per chunk; a longer line gets a chunk of its own (default 256 KiB). */
  chunkBytes?: number;
  /** Free chunks kept for reuse; more are left to the garbage collector (default 32 = 8 MiB). */
  maxFreeChunks?: number;
}

export interface LineStore {
  /** Encodes the point (throws LineProtocolError as encodePoint does) and keeps its line. */
  add(point: Point): StoredLine;
  /** The lines joined by "\n", in a buffer reused by the next call: valid until then. */
  body(lines: readonly StoredLine[]): Uint8Array;
  /** The first `maxChars` characters of a line (for log previews). */
  text(line: StoredLine, maxChars: number): string;
  /** The lines are written, refused or dropped: their bytes may be reused. */
  release(lines: readonly StoredLine[]): void;
  /** Bytes held: chunks in use and free, and the body buffer. */
  heldBytes(): number;
}

const NEWLINE = 0x0a;
/** UTF-8 takes at most 3 bytes per UTF-16 code unit (a surrogate pair: 4 bytes for 2 units). */
const MAX_BYTES_PER_CHAR = 3;

export function createLineStore(options: LineStoreOptions = {}): LineStore {
  const chunkBytes = options.chunkBytes ?? 256 * 1024;
  const maxFreeChunks = options.maxFreeChunks ?? 32;
  const free: Chunk[] = [];
  let current: Chunk | undefined;
  let chunksHeld = 0;
  let body = Buffer.alloc(0);

  function allocate(size: number): Chunk {
    chunksHeld += size;
    return { bytes: Buffer.allocUnsafe(size), used: 0, lines: 0 };
  }

  /** Every line of the chunk is released and it is not current: reuse it, or let it go. */
  function retire(chunk: Chunk): void {
    if (chunk.bytes.length === chunkBytes && free.length < maxFreeChunks) {
      chunk.used = 0;
      free.push(chunk);
    } else {
      chunksHeld -= chunk.bytes.length;
    }
  }

  /** Where the line goes: the current chunk when it has room, else a fresh one. */
  function chunkFor(line: string): Chunk {
    const room = current === undefined ? 0 : current.bytes.length - current.used;
    if (current !== undefined && room >= line.length * MAX_BYTES_PER_CHAR) return current;
    const size = Buffer.byteLength(line);
    if (current !== undefined && room >= size) return current;
    // Longer than a chunk: a chunk of its own, retired when its line is released.
    if (size > chunkBytes) return allocate(size);
    if (current !== undefined && current.lines === 0) retire(current);
    current = free.pop() ?? allocate(chunkBytes);
    return current;
  }

  return {
    add(point) {
      const line = encodePoint(point);
      const chunk = chunkFor(line);
      const start = chunk.used;
      chunk.used += chunk.bytes.write(line, start);
      chunk.lines += 1;
      return { chunk, start, end: chunk.used };
    },

    body(lines) {
      let size = Math.max(0, lines.length - 1);
      for (const line of lines) size += line.end - line.start;
      if (body.length < size) body = Buffer.allocUnsafe(size);
      let offset = 0;
      for (let index = 0; index < lines.length; index += 1) {
        const line = lines[index] as StoredLine;
        if (index > 0) body[offset++] = NEWLINE;
        offset += line.chunk.bytes.copy(body, offset, line.start, line.end);
      }
      return body.subarray(0, size);
    },

    text(line, maxChars) {
      // Cut after enough bytes for maxChars characters; a character cut in two lies beyond them.
      const end = Math.min(line.end, line.start + maxChars * MAX_BYTES_PER_CHAR);
      return line.chunk.bytes.toString("utf8", line.start, end).slice(0, maxChars);
    },

    release(lines) {
      for (const { chunk } of lines) {
        chunk.lines -= 1;
        if (chunk.lines > 0) continue;
        // The current chunk starts over; a full one is reused or let go.
        if (chunk === current) chunk.used = 0;
        else retire(chunk);
      }
    },

    heldBytes: () => chunksHeld + body.length,
  };
}
