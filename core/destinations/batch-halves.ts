/**
 * A batch cut in two, to find the items a destination keeps failing on (the rule is in
 * retrying-batch-write.ts, and consume-events.ts applies it in the cloud). Each half gets the id
 * `<batch id>-<index of its first item in the batch>`, the first half the batch's own id: file
 * destinations name their files after the batch id, so the halves' files never collide with each
 * other, and a half that starts where an earlier failed write started replaces what that write
 * may have left (the same name) rather than writing its rows twice.
 */

/** The refusal reason of an item a destination keeps failing on alone, with an error that is no outage. */
export const UNWRITABLE = "unwritable";

/** Part of a batch: its id, and where its items start in the whole batch. */
export interface BatchPart<T> {
  readonly id: string;
  /** Index of its first item in the whole batch. */
  readonly offset: number;
  readonly items: readonly T[];
}

/** The whole batch `id` as its own first part. */
export function wholeBatch<T>(id: string, items: readonly T[]): BatchPart<T> {
  return { id, offset: 0, items };
}

/** The two halves of `part` (of the batch `batchId`), the first one the larger by at most one item. */
export function halves<T>(batchId: string, part: BatchPart<T>): [BatchPart<T>, BatchPart<T>] {
  const middle = Math.ceil(part.items.length / 2);
  const at = (offset: number) => (offset === 0 ? batchId : `${batchId}-${offset}`);
  return [
    { id: at(part.offset), offset: part.offset, items: part.items.slice(0, middle) },
    { id: at(part.offset + middle), offset: part.offset + middle, items: part.items.slice(middle) },
  ];
}
