/**
 * How an item batcher writes one batch: again and again, after a backoff that doubles per failure
 * (from `initialRetryDelayMs` up to `maxRetryDelayMs`), until the destination takes it, refuses
 * some of it as data, or the batcher gives up. A refusal is not an outage: the refused items are
 * counted and logged by reason (the refusal tally) and never written again, without a backoff,
 * so they hold up neither the items behind them nor a shutdown; the rest of the batch counts as
 * written.
 */
import type { Clock } from "../ports.ts";
import { describeError } from "./describe-error.ts";
import type { ItemBatch, Refusal } from "./item-batcher.ts";
import type { RefusalTally } from "./refusal-tally.ts";
import type { WriteOutage } from "./write-outage.ts";

export interface BatchWriteSteps<T> {
  /** Writes one batch; throws when it was not (entirely) written. */
  write(batch: ItemBatch<T>): Promise<void>;
  /** The refusals a write error stands for, or undefined when the batch should be written again. */
  refusal(error: unknown, batch: ItemBatch<T>): readonly Refusal[] | undefined;
  /** Told of every failed write (refused or to be retried). */
  onWriteError?: ((error: unknown) => void) | undefined;
}

export interface RetryDelays {
  initialRetryDelayMs: number;
  maxRetryDelayMs: number;
}

export class RetryingBatchWrite<T> {
  /** Ends the backoff under way at once, when the batcher gives up. */
  private wakeRetry: (() => void) | undefined;

  constructor(
    private readonly steps: BatchWriteSteps<T>,
    private readonly delays: RetryDelays,
    private readonly outage: WriteOutage,
    private readonly refusals: RefusalTally,
    private readonly clock: Clock,
    /** True once the batcher gave up: no retry is waited for any more. */
    private readonly abandoned: () => boolean,
  ) {}

  /** Resolves with the number of items the destination refused outright. */
  async write(batch: ItemBatch<T>): Promise<number> {
    let delay = this.delays.initialRetryDelayMs;
    for (;;) {
      try {
        await this.steps.write(batch);
        this.outage.ended();
        return 0;
      } catch (error) {
        this.steps.onWriteError?.(error);
        const refused = this.steps.refusal(error, batch);
        if (refused !== undefined) {
          this.outage.ended();
          return this.countRefusals(refused, batch.items.length, error);
        }
        this.outage.failed(error, batch.items.length, delay);
        if (this.abandoned()) return 0;
        await this.backoff(delay);
        this.wakeRetry = undefined;
        if (this.abandoned()) return 0;
        delay = Math.min(delay * 2, this.delays.maxRetryDelayMs);
      }
    }
  }

  /** The batcher gives up: a backoff under way ends at once. */
  interrupt(): void {
    this.wakeRetry?.();
  }

  private backoff(delay: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const handle = this.clock.setTimeout(resolve, delay);
      this.wakeRetry = () => {
        this.clock.clearTimeout(handle);
        resolve();
      };
    });
  }

  /** Counts and logs the refusals; how many items of the batch they refused. */
  private countRefusals(refused: readonly Refusal[], batchSize: number, error: unknown): number {
    let total = 0;
    for (const refusal of refused) {
      const count = Math.min(Math.max(0, refusal.count), batchSize - total);
      total += count;
      const detail = refusal.detail ?? describeError(error);
      this.refusals.note({ reason: refusal.reason, count, detail, fields: refusal.fields }, this.clock.now());
    }
    return total;
  }
}
