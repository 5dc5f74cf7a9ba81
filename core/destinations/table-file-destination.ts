/**
 * The parquet and tablefile destinations: one file per flushed batch and event date,
 * `date=YYYY-MM-DD/<flushTimeUTC>-<batchId>.<ext>` in the destination's object store (names never
 * collide between concurrent consumers). The date is the event's UTC date, so a batch spanning
 * midnight becomes several files.
 */

import type { AcceptedEvent } from "../audit/accepted-event.ts";
import { extractAuditFacts } from "../audit/audit-facts.ts";
import { type AuditRow, isoUtcDate, toAuditRow } from "../audit/audit-row.ts";
import { type StaticTag, staticTagsObject } from "../audit/static-tags.ts";
import type { AuditDestination, ObjectStore, TableFileEncoder } from "../ports.ts";
import { flushStamp } from "./batch-id.ts";
import { DestinationWriteError } from "./destination-write-error.ts";

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
      const partitions = new Map<string, { events: AcceptedEvent[]; rows: AuditRow[] }>();
      for (const event of batch.events) {
        const facts = extractAuditFacts(event);
        // A validated envelope always has a parseable timestamp; receivedAt, then the flush
        // time, are fallbacks so that an odd event can never make the whole batch unwritable.
        const receivedMs = Date.parse(event.receivedAt);
        const date = isoUtcDate(
          facts.timestampMs ?? (Number.isFinite(receivedMs) ? receivedMs : batch.flushedAt.getTime()),
        );
        let partition = partitions.get(date);
        if (partition === undefined) {
          partition = { events: [], rows: [] };
          partitions.set(date, partition);
        }
        partition.events.push(event);
        partition.rows.push(toAuditRow(facts, tags));
      }
      const failed: AcceptedEvent[] = [];
      let firstError: unknown;
      for (const [date, partition] of partitions) {
        const key = `date=${date}/${flushStamp(batch.flushedAt)}-${batch.id}.${encoder.extension}`;
        try {
          await store.put(
            key,
            encoder.encode(partition.rows, { batchId: batch.id, flushedAt: batch.flushedAt }),
          );
        } catch (error) {
          firstError ??= error;
          failed.push(...partition.events);
        }
      }
      if (failed.length > 0) throw new DestinationWriteError(name, failed, { cause: firstError });
    },
  };
}
