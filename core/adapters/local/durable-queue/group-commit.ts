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
  return new PipelinedGroupCommit(steps, Math.max(1, options.maxSyncsInFlight ?? 1));
}

class PipelinedGroupCommit<T> implements GroupCommit<T> {
  private waiting = emptyGroup<T>();
  private writeScheduled = false;
  private writing = false;
  /** Groups written or being written, not yet durable, oldest first; `unacked[0]` is number `acked`. */
  private unacked: Group<T>[] = [];
  private acked = 0;
  /** Groups whose write completed, counted from the first ever. */
  private written = 0;
  /** Syncs started and not yet accounted for, in start order. */
  private readonly syncs: Sync[] = [];
  private syncsRunning = 0;
  /** Set by a failure until `recover` ran; every write or sync started before it is ignored. */
  private failed = false;
  private recovering = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly steps: GroupCommitSteps<T>,
    private readonly maxSyncs: number,
  ) {}

  submit(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.items.push(item);
      this.waiting.resolves.push(resolve);
      this.waiting.rejects.push(reject);
      this.scheduleWrite();
    });
  }

  idle(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.idleWaiters.push(resolve);
      this.settleIdle();
    });
  }

  private busy(): boolean {
    return (
      this.waiting.items.length > 0 ||
      this.writing ||
      this.syncsRunning > 0 ||
      this.unacked.length > 0 ||
      this.recovering
    );
  }

  private settleIdle(): void {
    if (this.busy() || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }

  private scheduleWrite(): void {
    if (this.writeScheduled || this.writing || this.failed || this.waiting.items.length === 0) return;
    this.writeScheduled = true;
    // The next turn of the event loop: every request read in this one joins the group.
    setImmediate(() => {
      this.writeScheduled = false;
      this.startWrite();
    });
  }

  private startWrite(): void {
    if (this.writing || this.failed || this.waiting.items.length === 0) return;
    const group = this.waiting;
    this.waiting = emptyGroup<T>();
    this.unacked.push(group);
    this.writing = true;
    this.steps.write(group.items).then(
      () => {
        this.writing = false;
        if (this.failed) {
          this.afterFailure();
          return;
        }
        this.written += 1;
        this.startSync();
        this.scheduleWrite();
      },
      (error: unknown) => {
        this.writing = false;
        this.fail(error);
      },
    );
  }

  private startSync(): void {
    if (this.failed || this.syncsRunning >= this.maxSyncs) return;
    const last = this.syncs[this.syncs.length - 1];
    const covered = last === undefined ? this.acked : last.covers;
    if (this.written <= covered) return;
    const sync: Sync = { covers: this.written, done: false };
    this.syncs.push(sync);
    this.syncsRunning += 1;
    this.steps.sync().then(
      () => {
        this.syncsRunning -= 1;
        if (this.failed) {
          this.afterFailure();
          return;
        }
        sync.done = true;
        this.acknowledge();
        this.startSync();
      },
      (error: unknown) => {
        this.syncsRunning -= 1;
        // At once, not in order: a sync still running may report success for pages this failure
        // dropped (the kernel reports a writeback error once per open file), so no group that is
        // not durable yet can count on any sync any more.
        this.fail(error);
      },
    );
  }

  /** Settles the groups covered by the syncs that succeeded, in start order, up to a running one. */
  private acknowledge(): void {
    for (;;) {
      const sync = this.syncs[0];
      if (sync === undefined || !sync.done) break;
      this.syncs.shift();
      while (this.acked < sync.covers) {
        const group = this.unacked.shift() as Group<T>;
        this.acked += 1;
        this.steps.durable(group.items);
        for (const resolve of group.resolves) resolve();
      }
    }
    this.settleIdle();
  }

  private fail(error: unknown): void {
    if (this.failed) {
      this.afterFailure();
      return;
    }
    this.failed = true;
    const lost = this.unacked;
    this.unacked = [];
    this.syncs.length = 0;
    for (const group of lost) for (const reject of group.rejects) reject(error);
    this.afterFailure();
  }

  /** Once the last write or sync begun before the failure is back, undoes it and goes on. */
  private afterFailure(): void {
    if (this.writing || this.syncsRunning > 0 || this.recovering) return;
    this.recovering = true;
    this.steps
      .recover()
      .catch(() => undefined)
      .then(() => {
        // Written, acknowledged and rejected groups are all accounted for: counting starts afresh.
        this.written = 0;
        this.acked = 0;
        this.failed = false;
        this.recovering = false;
        this.scheduleWrite();
        this.settleIdle();
      });
  }
}
