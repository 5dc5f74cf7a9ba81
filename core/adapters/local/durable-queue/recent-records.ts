/**
 * The latest synced records of the durable audit log, kept in memory with the values appended,
 * so that readers that keep up need not read the disk and decode. Each is dropped as soon as every
 * reader is past it (`release`), so normally only the records of the last group or two are held.
 * At most RECENT_RECORDS are kept: that bounds what a reader that falls behind keeps alive (past
 * it, that reader reads from disk and parses). Dropping early matters: at load, events kept longer
 * were promoted to V8's old space, which then grew by tens of MB of dead events between full
 * collections.
 */

/** At most how many of the latest synced records stay in memory. */
const RECENT_RECORDS = 1024;

/** A record as a reader gets it from memory: where it ends and the value appended with it. */
export interface RecentValue {
  end: number;
  value: unknown;
}

interface RecentRecord {
  start: number;
  end: number;
  value: unknown;
}

export class RecentRecords {
  /** Oldest first, between `head` and the array's end. */
  private records: RecentRecord[] = [];
  private head = 0;

  /** Keeps the records of a group just synced, of these sizes, the first one starting at `start`. */
  remember(group: readonly { bytes: number; value: unknown }[], start: number): void {
    let position = start;
    for (const { bytes, value } of group) {
      this.records.push({ start: position, end: position + bytes, value });
      position += bytes;
    }
    if (this.records.length - this.head > RECENT_RECORDS) this.drop(this.records.length - RECENT_RECORDS);
  }

  /**
   * Records from `position` on, up to about `maxBytes` and none past `committedEnd` (none unless a
   * record starts exactly there, and none once one of them was dropped).
   */
  from(position: number, committedEnd: number, maxBytes: number): RecentValue[] {
    const records = this.records;
    let low = this.head;
    let high = records.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const start = (records[middle] as RecentRecord).start;
      if (start === position) {
        const found: RecentValue[] = [];
        let bytes = 0;
        for (let i = middle; i < records.length && bytes < maxBytes; i++) {
          const entry = records[i] as RecentRecord;
          if (entry.end > committedEnd || entry.value === undefined) break;
          found.push({ end: entry.end, value: entry.value });
          bytes += entry.end - entry.start;
        }
        return found;
      }
      if (start < position) low = middle + 1;
      else high = middle - 1;
    }
    return [];
  }

  /** Every reader is at or past `position`: the records before it need not stay in memory. */
  release(position: number): void {
    let upTo = this.head;
    while (upTo < this.records.length && (this.records[upTo] as RecentRecord).end <= position) upTo += 1;
    if (upTo > this.head) this.drop(upTo);
  }

  /** Forgets the records before index `upTo`. */
  private drop(upTo: number): void {
    for (; this.head < upTo; this.head++) (this.records[this.head] as RecentRecord).value = undefined;
    if (this.head >= RECENT_RECORDS) {
      this.records = this.records.slice(this.head);
      this.head = 0;
    }
  }
}
