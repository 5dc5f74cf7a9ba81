/**
 * How an item batcher writes one batch: again and again, after a backoff that doubles per failure
 * (from `initialRetryDelayMs` up to `maxRetryDelayMs`), until the destination takes it, refuses
 * some of it as data, or the batcher gives up. A refusal is not an outage: the refused items are
 * counted and logged by reason (the refusal tally) and never written again, without a backoff,
 * so they hold up neither the items behind them nor a shutdown; the rest of the batch counts as
 * written.
 *
 * An outage (the steps' `isOutage`: a server that cannot be reached, a full disk) is retried for
 * as long as it lasts: it ends on its own, and nothing is lost meanwhile. Any other error (a
 * TypeError, a RangeError: a fault the destination meets in the data or in itself) does not end
 * on its own; retried for ever it stalled the destination, and with the durable queue everything
 * behind it, across restarts. So it is retried a bounded number of times (FAULTY_WRITES writes in
 * all, with the same backoff, so that a passing fault is ridden out) and then isolated: the batch
 * is cut in halves (batch-halves.ts), each written on its own, and a half that fails so again is
 * halved at once, down to single items; an item that still fails alone is refused, reason
 * `unwritable`, with the error's description, and the rest is written. A half that meets an
 * outage or a refusal is treated as any batch is. Writers whose destinations report outages as
 * plain errors (the agent's, whose clients throw what the network throws) give no `isOutage`:
 * for them every failure that is not a refusal is an outage, as before.
 */
import type { Clock, LogFields } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import { type BatchPart, halves, UNWRITABLE, wholeBatch } from "./batch-halves.ts";
import type { ItemBatch, Refusal } from "./item-batcher.ts";
import type { RefusalTally } from "./refusal-tally.ts";
import type { WriteOutage } from "./write-outage.ts";

/** Writes of a batch that fail with an error that is no outage before it is isolated. */
export const FAULTY_WRITES = 3;

export interface BatchWriteSteps<T> {
  /** Writes one batch; throws when it was not (entirely) written. */
  write(batch: ItemBatch<T>): Promise<void>;
  /** The refusals a write error stands for, or undefined when the batch should be written again. */
  refusal(error: unknown, batch: ItemBatch<T>): readonly Refusal[] | undefined;
  /**
   * Whether an error that is no refusal is an outage (retried until it ends); any other error is
   * isolated after FAULTY_WRITES writes. Absent: every such error is an outage.
   */
  isOutage?: ((error: unknown) => boolean) | undefined;
  /** Log fields naming the items of an `unwritable` refusal (e.g. their ids). */
  nameItems?: ((items: readonly T[]) => LogFields) | undefined;
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
  write(batch: ItemBatch<T>): Promise<number> {
    return this.writePart(batch, wholeBatch(batch.id, batch.items), FAULTY_WRITES);
  }

  /** The batcher gives up: a backoff under way ends at once. */
  interrupt(): void {
    this.wakeRetry?.();
  }

  /** Writes `part` of `batch` under the rules above, isolating after `faultyWrites` faults. */
  private async writePart(batch: ItemBatch<T>, part: BatchPart<T>, faultyWrites: number): Promise<number> {
    const written: ItemBatch<T> = { id: part.id, flushedAt: batch.flushedAt, items: part.items };
    let delay = this.delays.initialRetryDelayMs;
    let faults = 0;
    for (;;) {
      try {
        await this.steps.write(written);
        this.outage.ended();
        return 0;
      } catch (error) {
        this.steps.onWriteError?.(error);
        const refused = this.steps.refusal(error, written);
        if (refused !== undefined) {
          this.outage.ended();
          return this.countRefusals(refused, part.items.length, error);
        }
        if (this.steps.isOutage !== undefined && !this.steps.isOutage(error)) {
          faults += 1;
          if (faults >= faultyWrites) return this.isolate(batch, part, error);
        }
        this.outage.failed(error, part.items.length, delay);
        if (this.abandoned()) return 0;
        await this.backoff(delay);
        this.wakeRetry = undefined;
        if (this.abandoned()) return 0;
        delay = Math.min(delay * 2, this.delays.maxRetryDelayMs);
      }
    }
  }

  /** `part` keeps failing with `error`: its halves are written on their own, a lone item refused. */
  private async isolate(batch: ItemBatch<T>, part: BatchPart<T>, error: unknown): Promise<number> {
    if (part.items.length <= 1) {
      const fields = this.steps.nameItems?.(part.items) ?? {};
      const refusal = { reason: UNWRITABLE, count: part.items.length, detail: describeError(error), fields };
      return this.countRefusals([refusal], part.items.length, error);
    }
    let refused = 0;
    for (const half of halves(batch.id, part)) {
      if (this.abandoned()) break;
      refused += await this.writePart(batch, half, 1);
    }
    return refused;
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
