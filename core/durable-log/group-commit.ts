/**
 * Group commit: many callers' records, one write and one sync. A record submitted while no
 * flush runs starts one at once (no waiting for company); records submitted while a flush runs
 * wait and all go together in the next one. So under load the sync cost is shared by every
 * request that arrived during the previous sync, and alone a request pays one sync. The flush
 * itself (append + fdatasync) is injected.
 */

export interface GroupCommit<T> {
  /** Resolves once `item` is flushed (written and synced); rejects if its flush failed. */
  submit(item: T): Promise<void>;
  /** Resolves once nothing is waiting or flushing. */
  idle(): Promise<void>;
}

interface Waiting<T> {
  items: T[];
  settle: Array<{ resolve: () => void; reject: (error: unknown) => void }>;
}

export function createGroupCommit<T>(flush: (items: readonly T[]) => Promise<void>): GroupCommit<T> {
  let next: Waiting<T> = { items: [], settle: [] };
  let flushing: Promise<void> | undefined;

  function start(): void {
    const group = next;
    next = { items: [], settle: [] };
    flushing = flush(group.items).then(
      () => {
        for (const waiter of group.settle) waiter.resolve();
      },
      (error: unknown) => {
        for (const waiter of group.settle) waiter.reject(error);
      },
    );
    void flushing.then(() => {
      flushing = undefined;
      if (next.items.length > 0) start();
    });
  }

  return {
    submit(item) {
      return new Promise<void>((resolve, reject) => {
        next.items.push(item);
        next.settle.push({ resolve, reject });
        if (flushing === undefined) start();
      });
    },
    async idle() {
      while (flushing !== undefined) await flushing;
    },
  };
}
