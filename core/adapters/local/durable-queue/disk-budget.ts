/**
 * The durable audit log's disk budget, `maxDiskBytes`: what the log holds plus the appends in
 * flight. An append that would take the log past it is refused ("full"), and a record larger
 * than the whole budget too ("too-large": it could never fit).
 *
 * A refused append frees what it can first: when every destination has written the whole log
 * (cursors in memory) and nothing is in flight, the append is taken on the condition that the
 * next write seals the active segment and deletes every segment first, so the log holds nothing
 * but that write. Without this, a budget of one segment (maxDiskBytes 64 KiB: the active segment
 * is sealed only at `segmentBytes`, which a refused append never lets it reach) would stay full
 * for good, and with any budget a partly filled active segment, all of it written, could keep
 * refusing a record larger than the rest of the budget. Sealing only then, not each time the
 * destinations catch up, keeps segments large while the log has room. Deleting by the cursors in
 * memory is safe (a restart moves a cursor left behind up to the oldest kept record) and replays
 * none of it.
 */
import type { DestinationCursors } from "./destination-cursors.ts";
import type { SegmentFiles } from "./segment-files.ts";
import type { SyncedEnd } from "./synced-end.ts";

/**
 * How an append would be taken: at once, only by first freeing the whole log (every destination
 * has written all of it, and nothing is in flight that it could hold), or not.
 */
export type Admission = "fits" | "fits-once-freed" | "full" | "too-large";

export class DiskBudget {
  /** Bytes of appends taken and neither durable nor failed yet. */
  private pendingBytes = 0;
  /** Set by an append taken on the condition that everything before this position goes first. */
  private freeBefore: number | undefined;

  constructor(
    readonly maxDiskBytes: number,
    private readonly end: SyncedEnd,
    private readonly files: SegmentFiles,
    private readonly cursors: DestinationCursors,
  ) {}

  admission(bytes: number): Admission {
    if (bytes > this.maxDiskBytes) return "too-large";
    if (this.usedBytes() + bytes <= this.maxDiskBytes) return "fits";
    const written = this.cursors.slowest()?.position ?? this.end.position;
    return this.pendingBytes === 0 && written >= this.end.position ? "fits-once-freed" : "full";
  }

  /** An append of `bytes` is taken as `admitted` says; it counts until `settle`. */
  take(bytes: number, admitted: "fits" | "fits-once-freed"): void {
    // Nothing else is waiting or being written: this append is in the next write, which frees the log first.
    if (admitted === "fits-once-freed") this.freeBefore = this.end.position;
    this.pendingBytes += bytes;
  }

  /** Appends of `bytes` are durable or failed: they no longer count as in flight. */
  settle(bytes: number): void {
    this.pendingBytes -= bytes;
  }

  /** Whether the next write must first free the log (an append was taken on that condition). */
  freeRequested(): boolean {
    return this.freeBefore !== undefined;
  }

  /** The log was freed (or freeing it failed): the condition is met, or given up. */
  freed(): void {
    this.freeBefore = undefined;
  }

  /** Bytes the log counts against `maxDiskBytes`: what it holds, and appends still in flight. */
  private usedBytes(): number {
    return this.end.position - (this.freeBefore ?? this.files.start()) + this.pendingBytes;
  }
}
