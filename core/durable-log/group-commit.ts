/**
 * Group commit, pipelined: many callers' records share one write and one sync, and the disk is
 * never left idle while work waits. Writes run one at a time, each taking every record that
 * arrived since the previous write began (a lone record goes at once, in the next turn of the
 * event loop); a write does not wait for any sync. As soon as a write completes, a sync starts
 * that covers it and everything written before it, if fewer than `maxSyncsInFlight` syncs run;
 * otherwise the next sync to start covers it. So under load the write of one group overlaps the
 * sync of the one before, and one sync is shared by every group written while the previous one ran.
 *
 * Acknowledgement is in order: a group is durable (its records resolve, `durable` is told) once a
 * sync that started after its write completed has succeeded, and every sync started before that
 * one has succeeded too. A sync that completes early waits for the earlier ones: a failed sync may
 * have dropped pages that a later, successful sync on the same file then no longer reports. So a
 * failed write fails its group and every later group already written or being written (they lie
 * after it in the file), and a failed sync every group not yet durable; once nothing is in flight `recover`
 * undoes what was written but is not durable, and the records that were still waiting for a
 * write go on. The steps themselves (write, sync, recover) are injected.
 *
 * `maxSyncsInFlight` 1 is "write as requests arrive, one sync covers everything written before
 * it started"; more lets each written group start its own sync at once. Measured on the
 * development VM (test/bench/ingest.bench.ts), 1 was as fast as 2–4 and is the default.
 */

export interface GroupCommitSteps<T> {
  /** Writes one group after every earlier one; never called while another write runs. */
  write(items: readonly T[]): Promise<void>;
  /** Makes everything whose write completed before this call durable. May overlap writes and syncs. */
  sync(): Promise<void>;
  /** Told, in order and before the records' submitters, that a group is durable. */
  durable(items: readonly T[]): void;
  /** After a failure, with nothing in flight: drops whatever was written but is not durable. */
  recover(): Promise<void>;
}

export interface GroupCommitOptions {
  /** How many syncs may run at once (default 1). */
  maxSyncsInFlight?: number;
}

export interface GroupCommit<T> {
  /** Resolves once `item` is durable; rejects if its write or a sync it depends on failed. */
  submit(item: T): Promise<void>;
  /** Resolves once nothing is waiting, writing or syncing. */
  idle(): Promise<void>;
}

interface Group<T> {
  items: T[];
  resolves: Array<() => void>;
  rejects: Array<(error: unknown) => void>;
}

interface Sync {
  /** Groups (counted from the first written) this sync covers: every one before it. */
  covers: number;
  done: boolean;
}

const emptyGroup = <T>(): Group<T> => ({ items: [], resolves: [], rejects: [] });

export function createGroupCommit<T>(
  steps: GroupCommitSteps<T>,
  options: GroupCommitOptions = {},
): GroupCommit<T> {
  const maxSyncs = Math.max(1, options.maxSyncsInFlight ?? 1);
  let waiting = emptyGroup<T>();
  let writeScheduled = false;
  let writing = false;
  /** Groups written or being written, not yet durable, oldest first; `unacked[0]` is number `acked`. */
  let unacked: Group<T>[] = [];
  let acked = 0;
  /** Groups whose write completed, counted from the first ever. */
  let written = 0;
  /** Syncs started and not yet accounted for, in start order. */
  const syncs: Sync[] = [];
  let syncsRunning = 0;
  /** Set by a failure until `recover` ran; every write or sync started before it is ignored. */
  let failed = false;
  let recovering = false;
  let idleWaiters: Array<() => void> = [];

  function busy(): boolean {
    return waiting.items.length > 0 || writing || syncsRunning > 0 || unacked.length > 0 || recovering;
  }

  function settleIdle(): void {
    if (busy() || idleWaiters.length === 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const wake of waiters) wake();
  }

  function scheduleWrite(): void {
    if (writeScheduled || writing || failed || waiting.items.length === 0) return;
    writeScheduled = true;
    // The next turn of the event loop: every request read in this one joins the group.
    setImmediate(() => {
      writeScheduled = false;
      startWrite();
    });
  }

  function startWrite(): void {
    if (writing || failed || waiting.items.length === 0) return;
    const group = waiting;
    waiting = emptyGroup<T>();
    unacked.push(group);
    writing = true;
    steps.write(group.items).then(
      () => {
        writing = false;
        if (failed) {
          afterFailure();
          return;
        }
        written += 1;
        startSync();
        scheduleWrite();
      },
      (error: unknown) => {
        writing = false;
        fail(error);
      },
    );
  }

  function startSync(): void {
    if (failed || syncsRunning >= maxSyncs) return;
    const last = syncs[syncs.length - 1];
    const covered = last === undefined ? acked : last.covers;
    if (written <= covered) return;
    const sync: Sync = { covers: written, done: false };
    syncs.push(sync);
    syncsRunning += 1;
    steps.sync().then(
      () => {
        syncsRunning -= 1;
        if (failed) {
          afterFailure();
          return;
        }
        sync.done = true;
        acknowledge();
        startSync();
      },
      (error: unknown) => {
        syncsRunning -= 1;
        // At once, not in order: a sync still running may report success for pages this failure
        // dropped (the kernel reports a writeback error once per open file), so no group that is
        // not durable yet can count on any sync any more.
        fail(error);
      },
    );
  }

  /** Settles the groups covered by the syncs that succeeded, in start order, up to a running one. */
  function acknowledge(): void {
    for (;;) {
      const sync = syncs[0];
      if (sync === undefined || !sync.done) break;
      syncs.shift();
      while (acked < sync.covers) {
        const group = unacked.shift() as Group<T>;
        acked += 1;
        steps.durable(group.items);
        for (const resolve of group.resolves) resolve();
      }
    }
    settleIdle();
  }

  function fail(error: unknown): void {
    if (failed) {
      afterFailure();
      return;
    }
    failed = true;
    const lost = unacked;
    unacked = [];
    syncs.length = 0;
    for (const group of lost) for (const reject of group.rejects) reject(error);
    afterFailure();
  }

  /** Once the last write or sync begun before the failure is back, undoes it and goes on. */
  function afterFailure(): void {
    if (writing || syncsRunning > 0 || recovering) return;
    recovering = true;
    steps
      .recover()
      .catch(() => undefined)
      .then(() => {
        // Written, acknowledged and rejected groups are all accounted for: counting starts afresh.
        written = 0;
        acked = 0;
        failed = false;
        recovering = false;
        scheduleWrite();
        settleIdle();
      });
  }

  return {
    submit(item) {
      return new Promise<void>((resolve, reject) => {
        waiting.items.push(item);
        waiting.resolves.push(resolve);
        waiting.rejects.push(reject);
        scheduleWrite();
      });
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      });
    },
  };
}
