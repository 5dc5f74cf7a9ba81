/**
 * The end of the durable audit log: the position just past the last synced record. Only what
 * lies before it was acknowledged, so only that is handed to readers; a reader that has read
 * everything waits here for the end to move.
 */
export class SyncedEnd {
  private waiters: Array<() => void> = [];

  constructor(private current: number) {}

  get position(): number {
    return this.current;
  }

  /** A group of `bytes` is synced: the end moves past it and every waiting reader looks again. */
  advance(bytes: number): void {
    this.current += bytes;
    this.wakeAll();
  }

  /** Resolves once the end moves past `position` (at once if it is), or `wakeAll` is called. */
  waitPast(position: number): Promise<void> {
    if (this.current > position) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  wakeAll(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
