/**
 * Space in an item batcher's full buffer, as the callers of `add()` wait for it: for as long as
 * it takes, or at most `maxWaitMs`. A bounded wait that runs out leaves the buffer overflowing:
 * from then on callers are refused at once, without a wait of their own, until a batch leaves the
 * buffer, so an outage costs a caller one bounded wait, not one per item.
 */
import type { Clock, TimerHandle } from "../ports.ts";

export class BufferSpace {
  private waiters: Array<() => void> = [];
  private overflow = false;

  constructor(
    private readonly clock: Clock,
    /** Longest wait for space; undefined = as long as it takes. */
    private readonly maxWaitMs: number | undefined,
  ) {}

  /** A bounded wait ran out and no batch has left the buffer since. */
  get overflowing(): boolean {
    return this.overflow;
  }

  /** A wait ran out: later callers are refused at once until space frees. */
  overflowed(): void {
    this.overflow = true;
  }

  /** Resolves true when space may have freed, false when `maxWaitMs` passed first. */
  wait(): Promise<boolean> {
    return new Promise((resolve) => {
      let deadline: TimerHandle | undefined;
      const wake = () => {
        if (deadline !== undefined) this.clock.clearTimeout(deadline);
        resolve(true);
      };
      this.waiters.push(wake);
      if (this.maxWaitMs !== undefined) {
        deadline = this.clock.setTimeout(() => {
          this.waiters = this.waiters.filter((waiter) => waiter !== wake);
          resolve(false);
        }, this.maxWaitMs);
      }
    });
  }

  /** A batch left the buffer, or the batcher stops: every waiting caller looks again. */
  freed(): void {
    this.overflow = false;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
