/**
 * The durable audit log on disk: segment files under one directory (`<position>.log`, records as
 * core/durable-log/record-format.ts encodes them), one cursor file per selected destination, and
 * the manifest of the destinations the log is written for: opening decides where each selected
 * destination starts, drops the cursors of those no longer selected and deletes what only they
 * held (open-destination-cursors.ts). One writer
 * appends; concurrent appends share one `write` + `fdatasync` (group commit, pipelined: the next
 * group is written while the previous one syncs, see core/durable-log/group-commit.ts), and an
 * append resolves only once its record is synced. A segment is sealed when it reaches `segmentBytes`
 * and deleted once every destination's persisted cursor lies past it. The log refuses appends
 * ("full") that would take it past `maxDiskBytes`, and a record larger than all of `maxDiskBytes`
 * ("too-large": it could never fit).
 *
 * A refused append frees what it can first: when every destination has written the whole log
 * (cursors in memory) and nothing is in flight, the active segment is sealed before the next
 * write and deleted with every other segment, so the log holds nothing but that write. Without
 * this, a budget of one segment (maxDiskBytes 64 KiB: the active segment is sealed only at
 * `segmentBytes`, which a refused append never lets it reach) would stay full for good, and with
 * any budget a partly filled active segment, all of it written, could keep refusing a record
 * larger than the rest of the budget. Sealing only then, not each time the destinations catch
 * up, keeps segments large while the log has room. Deleting by the cursors in memory is safe (a
 * restart moves a cursor left behind up to the oldest kept record) and replays none of it.
 *
 * The active segment is zero-filled ahead of its last record (up to PREALLOCATE_BYTES, in the
 * background, synced), so that a group's write lands on blocks that are already allocated, in a
 * file whose size is already on disk: its `fdatasync` then only writes data, with no journal commit
 * (ext4 here: p50 0.13 ms instead of 0.27 ms idle, and steady under CPU load, where a journal
 * commit waits for its kernel thread to be scheduled). A sealed segment is cut back to its records;
 * so, on close, is the active one. The zeros count towards neither `maxDiskBytes` nor the log.
 * Where less than three times that is free, or the zeros fail, a segment grows as it is written.
 *
 * Opening recovers from a crash: a torn or corrupt record at the end of the last segment (a
 * write cut short; it was never synced, so never acknowledged) is cut off with a WARN; zeros
 * after the last record (preallocated, no record has length 0) are cut off silently. A damaged
 * record met later by a reader is skipped with a WARN, with the rest of its segment (nothing
 * after it can be framed). Cursors move in memory as destinations write and reach disk at most
 * every `cursorSyncMs`: after a crash a destination may get up to that much again (delivery is
 * at-least-once), never less. One process owns the directory.
 *
 * A full or read-only disk fails appends (the caller answers 503) but never the log: a failed
 * write or sync is undone back to the last synced record, the active segment is sealed (so that
 * a log that filled its disk frees it as soon as every destination has written it), and the next
 * append tries again. Cursors that cannot be written are retried every `cursorSyncMs` with one
 * ERROR a minute at most; meanwhile segments every destination has written are deleted by the
 * cursors in memory, which frees the space the cursor files need.
 */
import { type FileHandle, open, readdir, readFile, rm, statfs, truncate } from "node:fs/promises";
import { join } from "node:path";
import { createGroupCommit } from "../../durable-log/group-commit.ts";
import {
  bytesOnDisk,
  deletableSegmentCount,
  segmentBaseOf,
  segmentFileName,
  segmentIndexOf,
  slowestCursor,
} from "../../durable-log/log-positions.ts";
import { decodeRecords, encodeRecordInto, RECORD_HEADER_BYTES } from "../../durable-log/record-format.ts";
import { createLogThrottle } from "../../logging/log-throttle.ts";
import type { Clock, Logger, TimerHandle } from "../../ports.ts";
import { cursorDirectory, syncDirectory, writeCursor } from "./cursor-files.ts";
import { makeDirectory } from "./make-directory.ts";
import { openDestinationCursors } from "./open-destination-cursors.ts";

export interface SegmentLogOptions {
  directory: string;
  /** The selected destinations: each keeps a cursor, and only they hold segments back. */
  destinations: readonly string[];
  maxDiskBytes: number;
  /** Size at which a segment is sealed and a new one begun (default: maxDiskBytes / 8, at most 64 MiB). */
  segmentBytes?: number;
  /** Longest time a moved cursor waits before it is written to disk (default 1000 ms). */
  cursorSyncMs?: number;
  clock: Clock;
  logger: Logger;
}

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

/**
 * "full": the record does not fit next to what the destinations have not all written yet;
 * "too-large": it is larger than `maxDiskBytes` and never fits.
 */
export type AppendResult = "appended" | "full" | "too-large";

export interface SegmentLog {
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
   * memory any longer (they would otherwise live until RECENT_RECORDS newer ones pushed them out).
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
/**
 * At most how many of the latest synced records stay in memory for readers that keep up; each is
 * dropped as soon as every reader is past it (`release`), so normally only the records of the
 * last group or two are held. The cap bounds what a reader that falls behind keeps alive: past
 * it, that reader reads from disk and parses.
 */
const RECENT_RECORDS = 1024;
/** How far ahead of the last record the active segment is zero-filled (at most to `segmentBytes`). */
const PREALLOCATE_BYTES = 4 * 1024 * 1024;
const ZEROS = Buffer.alloc(64 * 1024);
/** The buffer a group is encoded into, reused from write to write (writes never overlap). */
const WRITE_BUFFER_BYTES = 256 * 1024;

interface Appended {
  payload: string;
  /** The record's size: header and UTF-8 payload. */
  bytes: number;
  value: unknown;
}

interface RecentRecord {
  start: number;
  end: number;
  value: unknown;
}

export async function openSegmentLog(options: SegmentLogOptions): Promise<SegmentLog> {
  const { directory, clock, logger, maxDiskBytes } = options;
  const segmentBytes =
    options.segmentBytes ?? Math.max(64 * 1024, Math.min(MAX_SEGMENT_BYTES, Math.floor(maxDiskBytes / 8)));
  const cursorSyncMs = options.cursorSyncMs ?? 1000;
  const cursorDir = cursorDirectory(directory);
  await makeDirectory(cursorDir);

  const bases = (await readdir(directory))
    .map(segmentBaseOf)
    .filter((base): base is number => base !== undefined)
    .sort((a, b) => a - b);
  if (bases.length === 0) {
    await (await open(join(directory, segmentFileName(0)), "w")).close();
    await syncDirectory(directory);
    bases.push(0);
  }
  const pathOf = (base: number) => join(directory, segmentFileName(base));

  const activeBase = bases[bases.length - 1] as number;
  const content = await readFile(pathOf(activeBase));
  const recovered = decodeRecords(content);
  const zeroTail =
    recovered.stop === "corrupt" && content.subarray(recovered.validEnd).every((byte) => byte === 0);
  if (recovered.stop !== "end" && !zeroTail) {
    logger.warn("Audit event queue: skipped a torn or corrupt record at the end of the log", {
      segment: segmentFileName(activeBase),
      offset: recovered.validEnd,
      bytesSkipped: content.length - recovered.validEnd,
      reason: recovered.stop === "partial" ? "incomplete record (a write cut short)" : "checksum mismatch",
    });
  }
  if (recovered.stop !== "end") await truncate(pathOf(activeBase), recovered.validEnd);
  /** Bytes in the active segment file, including written records not yet synced. */
  let activeSize = recovered.validEnd;
  /** Position just past the last synced (acknowledged) record: what readers may see. */
  let end = activeBase + activeSize;
  /** Position the next write goes to. */
  let writeAt = end;
  /** Size of the active segment file: its records, then zeros up to here. */
  let allocated = activeSize;
  /** Zero-filling of the active segment past `allocated`, while it runs. */
  let extending: Promise<void> | undefined;
  /** The segment whose zero-filling failed (the disk is nearly full): it grows as it is written. */
  let notPreallocated: FileHandle | undefined;
  const preallocateBytes = Math.min(PREALLOCATE_BYTES, segmentBytes);
  let active: FileHandle = await open(pathOf(activeBase), "r+");
  if (recovered.stop !== "end") await active.datasync();

  let opened: Map<string, number>;
  try {
    opened = await openDestinationCursors({
      directory,
      cursorDirectory: cursorDir,
      selected: options.destinations,
      start: bases[0] as number,
      end,
      logger,
    });
  } catch (error) {
    // Not opened (the caller tries again later): the segment's handle must not leak.
    await active.close();
    throw error;
  }
  const cursors = new Map(opened);
  const persisted = new Map(opened);

  // Promises, so that readers opening the same segment at once share one handle.
  const readHandles = new Map<number, Promise<FileHandle>>();
  let pendingBytes = 0;
  /**
   * Set by an append taken on the condition that everything before this position goes first:
   * the next write seals the active segment and deletes every segment (see the top of the file).
   */
  let freeBefore: number | undefined;
  let closed = false;
  let endWaiters: Array<() => void> = [];

  function wakeEndWaiters(): void {
    const waiters = endWaiters;
    endWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Zero-fills the active segment from `allocated` on, in the background, and syncs that. */
  function preallocate(): void {
    const handle = active;
    const from = allocated;
    const to = Math.min(from + preallocateBytes, segmentBytes);
    if (to <= from || handle === notPreallocated) return;
    extending = (async () => {
      // Not on a nearly full disk: the zeros would take the space the cursor files need.
      const { bavail, bsize } = await statfs(directory);
      if (bavail * bsize < (to - from) * 3) throw new Error("too little free space to zero-fill");
      for (let at = from; at < to; at += ZEROS.length)
        await handle.write(ZEROS, 0, Math.min(ZEROS.length, to - at), at);
      await handle.datasync();
      if (handle === active) allocated = Math.max(allocated, to);
    })()
      // Without the zeros the log still works: appends then grow the file, as they would anyway.
      // On a nearly full disk, the zeros written go again (they would hold the space the cursor
      // files need) and this segment is not zero-filled again (that would be a loop).
      .catch(() => {
        notPreallocated = handle;
        return handle === active ? handle.truncate(from) : undefined;
      })
      .catch(() => undefined)
      .finally(() => {
        extending = undefined;
      });
  }

  /** Cuts the active segment back to its records (zeros and anything not synced go). */
  async function trimActive(): Promise<void> {
    if (extending !== undefined) await extending;
    await active.truncate(activeSize);
    allocated = activeSize;
  }

  /** Deletes the `count` oldest segments, closing their read handles. */
  async function deleteOldest(count: number): Promise<void> {
    for (const base of bases.splice(0, count)) {
      const handle = readHandles.get(base);
      readHandles.delete(base);
      await (await handle)?.close();
      await rm(pathOf(base), { force: true });
    }
  }

  /** Bytes the log counts against `maxDiskBytes`: what it holds, and appends still in flight. */
  function usedBytes(): number {
    return end - (freeBefore ?? (bases[0] as number)) + pendingBytes;
  }

  /**
   * How an append of `bytes` would be taken: at once, only by first freeing the whole log (every
   * destination has written all of it, and nothing is in flight that it could hold), or not.
   */
  function admission(bytes: number): "fits" | "fits-once-freed" | "full" | "too-large" {
    if (bytes > maxDiskBytes) return "too-large";
    if (usedBytes() + bytes <= maxDiskBytes) return "fits";
    const written = slowestCursor(cursors)?.position ?? end;
    return pendingBytes === 0 && written >= end ? "fits-once-freed" : "full";
  }

  /** Seals the active segment and deletes every segment each destination has written past. */
  async function freeWritten(): Promise<void> {
    try {
      if (activeSize > 0) await rotate();
      await deleteOldest(deletableSegmentCount(bases, slowestCursor(cursors)?.position ?? end));
    } finally {
      freeBefore = undefined;
    }
  }

  async function rotate(): Promise<void> {
    // A sync started from now on goes to the next segment, so this one is synced as it is sealed.
    await trimActive();
    await active.datasync();
    const sealed = active;
    const base = writeAt;
    active = await open(pathOf(base), "w+");
    bases.push(base);
    activeSize = 0;
    allocated = 0;
    await syncDirectory(directory);
    await sealed.close(); // after any sync still running on it
  }

  // The latest synced records, oldest first, between `recentHead` and the array's end.
  let recent: RecentRecord[] = [];
  let recentHead = 0;

  /** Forgets the recent records before index `upTo`. */
  function dropRecent(upTo: number): void {
    for (; recentHead < upTo; recentHead++) (recent[recentHead] as RecentRecord).value = undefined;
    if (recentHead >= RECENT_RECORDS) {
      recent = recent.slice(recentHead);
      recentHead = 0;
    }
  }

  function remember(group: readonly Appended[], start: number): void {
    let position = start;
    for (const { bytes, value } of group) {
      recent.push({ start: position, end: position + bytes, value });
      position += bytes;
    }
    if (recent.length - recentHead > RECENT_RECORDS) dropRecent(recent.length - RECENT_RECORDS);
  }

  /** Recent records from `position` on (none unless a record starts exactly there). */
  function recentFrom(position: number, committedEnd: number, maxBytes: number): LogRecord[] {
    let low = recentHead;
    let high = recent.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const start = (recent[middle] as RecentRecord).start;
      if (start === position) {
        const records: LogRecord[] = [];
        let bytes = 0;
        for (let i = middle; i < recent.length && bytes < maxBytes; i++) {
          const entry = recent[i] as RecentRecord;
          if (entry.end > committedEnd || entry.value === undefined) break;
          records.push({ end: entry.end, value: entry.value });
          bytes += entry.end - entry.start;
        }
        return records;
      }
      if (start < position) low = middle + 1;
      else high = middle - 1;
    }
    return [];
  }

  let writeBuffer = Buffer.allocUnsafe(WRITE_BUFFER_BYTES);

  async function writeGroup(group: readonly Appended[]): Promise<void> {
    if (freeBefore !== undefined) await freeWritten();
    if (activeSize >= segmentBytes) await rotate();
    let total = 0;
    for (const appended of group) total += appended.bytes;
    if (writeBuffer.length < total) writeBuffer = Buffer.allocUnsafe(total);
    let offset = 0;
    for (const { payload, bytes } of group)
      offset = encodeRecordInto(writeBuffer, offset, payload, bytes - RECORD_HEADER_BYTES);
    // Never into zeros still being written.
    if (extending !== undefined && activeSize + total > allocated) await extending;
    try {
      // A short write (the disk filled up) goes on with the rest, which fails with the OS's reason.
      for (let done = 0; done < total; ) {
        const { bytesWritten } = await active.write(writeBuffer, done, total - done, activeSize + done);
        if (bytesWritten === 0)
          throw new Error(`short write to the audit event log (${done} of ${total} bytes)`);
        done += bytesWritten;
      }
    } finally {
      // One large group must not keep a large buffer.
      if (writeBuffer.length > WRITE_BUFFER_BYTES) writeBuffer = Buffer.allocUnsafe(WRITE_BUFFER_BYTES);
    }
    activeSize += total;
    writeAt += total;
    allocated = Math.max(allocated, activeSize);
    if (extending === undefined && allocated - activeSize < preallocateBytes / 2) preallocate();
  }

  /**
   * After a failed write or sync: nothing past `end` counts. Segments begun past it go, the
   * active one is cut back to it, and the next group is written there.
   */
  async function dropUnsynced(): Promise<void> {
    if (extending !== undefined) await extending;
    while (bases.length > 1 && (bases[bases.length - 1] as number) > end) {
      await active.close().catch(() => undefined);
      await rm(pathOf(bases.pop() as number), { force: true });
      active = await open(pathOf(bases[bases.length - 1] as number), "r+");
    }
    writeAt = end;
    activeSize = end - (bases[bases.length - 1] as number);
    await trimActive();
    await active.datasync();
    // Often the disk is full. The active segment is never deleted, so seal it: once every
    // destination has written it, it goes and its space can take new records.
    if (activeSize > 0) {
      await rotate();
      schedulePersist();
    }
  }

  const commit = createGroupCommit<Appended>({
    write: writeGroup,
    // The handle of the moment: a rotation syncs the segment it seals itself.
    sync: () => active.datasync(),
    durable(group) {
      let bytes = 0;
      for (const appended of group) bytes += appended.bytes;
      remember(group, end);
      pendingBytes -= bytes;
      end += bytes;
      wakeEndWaiters();
    },
    recover: dropUnsynced,
  });

  let cursorTimer: TimerHandle | undefined;
  let persisting: Promise<void> = Promise.resolve();

  async function persistCursors(): Promise<void> {
    const changed = [...cursors].filter(([destination, position]) => persisted.get(destination) !== position);
    let failure: { error: unknown } | undefined;
    if (changed.length > 0) {
      try {
        for (const [destination, position] of changed) await writeCursor(cursorDir, destination, position);
        await syncDirectory(cursorDir);
        for (const [destination, position] of changed) persisted.set(destination, position);
      } catch (error) {
        failure = { error };
      }
    }
    // When the cursors cannot be written (a full disk), what every destination has written goes
    // by the cursors in memory, to free the space they need. Safe: at the next start a cursor
    // left behind is moved up to the oldest kept record, past what was deleted.
    const upTo = slowestCursor(failure === undefined ? persisted : cursors)?.position ?? end;
    await deleteOldest(deletableSegmentCount(bases, upTo));
    if (failure !== undefined) throw failure.error;
  }

  /** Failures to persist cursors: an ERROR at once, then at most one a minute; an INFO when they pass. */
  const persistFailures = createLogThrottle();
  let persistFailing = 0;

  function schedulePersist(): void {
    if (cursorTimer !== undefined || closed) return;
    cursorTimer = clock.setTimeout(() => {
      cursorTimer = undefined;
      persisting = persisting
        .then(persistCursors)
        .then(() => {
          if (persistFailing === 0) return;
          logger.info("Audit event queue: destination cursors are written again", {
            directory: cursorDir,
            failedAttempts: persistFailing,
          });
          persistFailing = 0;
        })
        .catch((error: unknown) => {
          persistFailing += 1;
          const failures = persistFailures.admit("persist", clock.now());
          if (failures !== undefined) {
            logger.error("Audit event queue: could not write destination cursors; will retry", {
              directory: cursorDir,
              error: error instanceof Error ? error.message : String(error),
              failures,
            });
          }
          schedulePersist();
        });
    }, cursorSyncMs);
  }

  function readHandle(base: number): Promise<FileHandle> {
    let handle = readHandles.get(base);
    if (handle === undefined) {
      handle = open(pathOf(base), "r");
      readHandles.set(base, handle);
    }
    return handle;
  }

  async function read(from: number, maxBytes: number): Promise<ReadResult> {
    const committedEnd = end;
    const start = bases[0] as number;
    const position = Math.max(from, start);
    if (position >= committedEnd) return { records: [], next: position };
    const inMemory = recentFrom(position, committedEnd, maxBytes);
    if (inMemory.length > 0)
      return { records: inMemory, next: (inMemory[inMemory.length - 1] as LogRecord).end };
    const index = segmentIndexOf(bases, position);
    const base = bases[index] as number;
    // A later segment may already hold records not yet synced, past `end`.
    const segmentEnd = Math.min(
      index + 1 < bases.length ? (bases[index + 1] as number) : committedEnd,
      committedEnd,
    );
    const want = Math.min(maxBytes, segmentEnd - position);
    const buffer = Buffer.allocUnsafe(want);
    const { bytesRead } = await (await readHandle(base)).read(buffer, 0, want, position - base);
    const decoded = decodeRecords(buffer.subarray(0, bytesRead));
    if (decoded.records.length > 0) {
      return {
        records: decoded.records.map((record) => ({ end: position + record.end, payload: record.payload })),
        next: position + decoded.validEnd,
      };
    }
    if (decoded.stop === "partial" && bytesRead === want && want < segmentEnd - position && bytesRead >= 4) {
      // One record larger than maxBytes: read exactly that record.
      return read(position, RECORD_HEADER_BYTES + buffer.readUInt32LE(0));
    }
    logger.warn("Audit event queue: skipped a damaged record and the rest of its segment", {
      segment: segmentFileName(base),
      offset: position - base,
      bytesSkipped: segmentEnd - position,
    });
    return { records: [], next: segmentEnd };
  }

  // What only destinations no longer selected held goes now, not at the first write after.
  try {
    await deleteOldest(deletableSegmentCount(bases, slowestCursor(persisted)?.position ?? end));
  } catch (error) {
    await active.close();
    throw error;
  }

  return {
    end: () => end,
    start: () => bases[0] as number,
    bytesOnDisk: () => bytesOnDisk(bases, end),
    maxDiskBytes,

    async append(payload, value) {
      if (closed) throw new Error("the audit event log is closed");
      const bytes = RECORD_HEADER_BYTES + Buffer.byteLength(payload);
      const admitted = admission(bytes);
      if (admitted === "full" || admitted === "too-large") return admitted;
      // Nothing else is waiting or being written: this append is in the next write, which frees the log first.
      if (admitted === "fits-once-freed") freeBefore = end;
      pendingBytes += bytes; // until durable (commit's `durable`) or failed
      try {
        await commit.submit({ payload, bytes, value });
      } catch (error) {
        pendingBytes -= bytes;
        throw error;
      }
      return "appended";
    },

    wouldTake(recordBytes) {
      const admitted = admission(recordBytes);
      return admitted === "fits" || admitted === "fits-once-freed";
    },

    read,

    release(position) {
      let upTo = recentHead;
      while (upTo < recent.length && (recent[upTo] as RecentRecord).end <= position) upTo += 1;
      if (upTo > recentHead) dropRecent(upTo);
    },

    waitForEnd(position) {
      if (end > position || closed) return Promise.resolve();
      return new Promise((resolve) => endWaiters.push(resolve));
    },

    wakeWaiters: wakeEndWaiters,

    cursor(destination) {
      return cursors.get(destination) ?? (bases[0] as number);
    },

    advance(destination, position) {
      const current = cursors.get(destination);
      if (current === undefined || position <= current) return;
      cursors.set(destination, Math.min(position, end));
      schedulePersist();
    },

    slowest() {
      const slowest = slowestCursor(cursors);
      return slowest === undefined
        ? undefined
        : { destination: slowest.destination, behindBytes: end - slowest.position };
    },

    async close() {
      if (closed) return;
      closed = true;
      wakeEndWaiters();
      if (cursorTimer !== undefined) clock.clearTimeout(cursorTimer);
      cursorTimer = undefined;
      await commit.idle();
      await persisting;
      await persistCursors();
      for (const handle of readHandles.values()) await (await handle).close();
      readHandles.clear();
      await trimActive();
      await active.datasync();
      await active.close();
    },
  };
}
