/**
 * The items an item batcher holds that its destination is not done with: those buffered for
 * the next batch, and the batch being written (its items still count as pending, for the bound
 * on the buffer and for what a shutdown leaves unwritten). The buffered items are due as a batch
 * when `maxBatchSize` of them are buffered, `writeFrequency` ms after the first of them came, at
 * once with `writeFrequency` 0, and at once while the batcher stops.
 */
import type { Clock } from "../ports.ts";
import { newBatchId } from "./batch-id.ts";
import type { ItemBatch } from "./item-batcher.ts";

export class BatchBuffer<T> {
  private readonly items: T[] = [];
  /** When the oldest buffered item came (clock ms); undefined while none is buffered. */
  private firstBufferedAt: number | undefined;
  private current: ItemBatch<T> | undefined;

  constructor(
    private readonly maxBatchSize: number,
    /** ms since the first buffered item; 0 = every item at once. */
    private readonly writeFrequency: number,
    private readonly clock: Clock,
  ) {}

  /** Items buffered for the next batch. */
  get buffered(): number {
    return this.items.length;
  }

  /** Items buffered or in the batch being written. */
  get pending(): number {
    return this.items.length + (this.current?.items.length ?? 0);
  }

  push(item: T): void {
    if (this.items.length === 0) this.firstBufferedAt = this.clock.now();
    this.items.push(item);
  }

  due(stopping: boolean): boolean {
    const { clock } = this;
    return (
      this.items.length > 0 &&
      (stopping ||
        this.writeFrequency <= 0 ||
        this.items.length >= this.maxBatchSize ||
        clock.now() - (this.firstBufferedAt ?? clock.now()) >= this.writeFrequency)
    );
  }

  /** How long until the buffered items are due by age (negative once they are). */
  msUntilDue(): number {
    const now = this.clock.now();
    return this.writeFrequency - (now - (this.firstBufferedAt ?? now));
  }

  /**
   * The oldest `maxBatchSize` items as the batch being written, with an id and a flush time that
   * it keeps across retries; the items left behind start a new wait for their own batch.
   */
  takeBatch(): ItemBatch<T> {
    const items = this.items.splice(0, this.maxBatchSize);
    this.firstBufferedAt = this.items.length > 0 ? this.clock.now() : undefined;
    this.current = { id: newBatchId(), flushedAt: new Date(this.clock.now()), items };
    return this.current;
  }

  /** The destination is done with the batch being written: its items are no longer pending. */
  finishBatch(): void {
    this.current = undefined;
  }

  /** The batcher gave up on the batch being written: its items go back in front, unwritten. */
  returnBatch(): void {
    if (this.current !== undefined) this.items.unshift(...this.current.items);
    this.current = undefined;
  }
}
