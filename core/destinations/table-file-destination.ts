/**
 * The parquet and tablefile destinations: one file per flushed batch and event date,
 * `date=YYYY-MM-DD/<flushTimeUTC>-<batchId>.<ext>` in the destination's object store (names never
 * collide between concurrent consumers). The date is the event's UTC date, so a batch spanning
 * midnight becomes several files.
 *
 * An event that cannot be made into a row, or whose row the file format cannot hold, is refused
 * on its own (`unencodable`, unwritten-events.ts) and the rest of its batch is written; a file
 * that cannot be stored is an outage for its events.
 *
 * The rows are made ROWS_PER_TURN at a time, with a turn of the event loop between (why:
 * shared/next-turn.ts); the encoders give way between their own pieces.
 */

import {
  type AcceptedEvent,
  type AuditRow,
  extractAuditFacts,
  isoUtcDate,
  type StaticTag,
  staticTagsObject,
  toAuditRow,
} from "../audit/index.ts";
import type { AuditDestination, ObjectStore, TableFileEncoder } from "../ports.ts";
import { nextTurn } from "../shared/next-turn.ts";
import { flushStamp } from "./batch-id.ts";
import { encodeRowsApart } from "./unencodable-rows.ts";
import { UnwrittenEvents } from "./unwritten-events.ts";

/** About 1.5 ms of row making on a quiet 2-core machine. */
const ROWS_PER_TURN = 250;

export interface TableFileDestinationOptions {
  name: string;
  store: ObjectStore;
  encoder: TableFileEncoder;
  staticTags: readonly StaticTag[];
}

export function createTableFileDestination({
  name,
  store,
  encoder,
  staticTags,
}: TableFileDestinationOptions): AuditDestination {
  const tags = staticTagsObject(staticTags);
  return {
    name,
    async write(batch) {
      const unwritten = new UnwrittenEvents(name);
      const partitions = new Map<string, Partition>();
      let made = 0;
      for (const event of batch.events) {
        if (made > 0 && made % ROWS_PER_TURN === 0) await nextTurn();
        made += 1;
        let date: string;
        let row: AuditRow;
        try {
          const facts = extractAuditFacts(event);
          date = isoUtcDate(facts.timestampMs ?? fallbackTimeMs(event, batch.flushedAt));
          row = toAuditRow(facts, tags);
        } catch (error) {
          // E.g. a RangeError from JSON.stringify of objectData nested too deeply: this event only.
          unwritten.unencodable(event, error);
          continue;
        }
        let partition = partitions.get(date);
        if (partition === undefined) {
          partition = { events: [], rows: [] };
          partitions.set(date, partition);
        }
        partition.events.push(event);
        partition.rows.push(row);
      }
      const meta = { batchId: batch.id, flushedAt: batch.flushedAt };
      for (const [date, { events, rows }] of partitions) {
        const { bytes, unencodable } = await encodeRowsApart(rows, (some) => encoder.encode(some, meta));
        for (const { index, error } of unencodable)
          unwritten.unencodable(events[index] as AcceptedEvent, error);
        if (bytes === undefined) continue;
        const key = `date=${date}/${flushStamp(batch.flushedAt)}-${batch.id}.${encoder.extension}`;
        try {
          await store.put(key, bytes);
        } catch (error) {
          const refused = new Set(unencodable.map(({ index }) => index));
          unwritten.outage(
            events.filter((_, index) => !refused.has(index)),
            error,
          );
        }
      }
      unwritten.throwIfAny();
    },
  };
}

/**
 * A validated envelope always has a parseable timestamp; receivedAt, then the flush time, are
 * fallbacks so that an odd event can never make the whole batch unwritable. Parsed only when
 * needed: Date.parse takes about 0.45 µs, once per event and destination.
 */
function fallbackTimeMs(event: AcceptedEvent, flushedAt: Date): number {
  const receivedMs = Date.parse(event.receivedAt);
  return Number.isFinite(receivedMs) ? receivedMs : flushedAt.getTime();
}

interface Partition {
  events: AcceptedEvent[];
  rows: AuditRow[];
}
