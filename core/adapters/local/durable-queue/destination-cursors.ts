/**
 * The selected destinations' cursors while the durable audit log is open. A cursor moves in memory
 * as its destination writes and reaches its file (cursor-files.ts) at most `syncMs` later: after a
 * crash a destination may get up to that much again (delivery is at-least-once), never less. Each
 * round of writes is followed by deleting the segments every destination has written, by the
 * cursors on disk.
 *
 * Cursors that cannot be written (a full disk) are retried every `syncMs`, with one ERROR a minute
 * at most and an INFO when they are written again; meanwhile the segments every destination has
 * written are deleted by the cursors in memory, which frees the space the cursor files need. Safe:
 * at the next start a cursor left behind is moved up to the oldest kept record, past what was
 * deleted.
 */
import { createLogThrottle } from "../../../logging/index.ts";
import type { Clock, Logger, TimerHandle } from "../../../ports.ts";
import { syncDirectory } from "../sync-directory.ts";
import { writeCursor } from "./cursor-files.ts";
import { slowestCursor } from "./log-positions.ts";
import type { SegmentFiles } from "./segment-files.ts";
import type { SyncedEnd } from "./synced-end.ts";

export interface DestinationCursorsOptions {
  /** The `cursors/` directory. */
  directory: string;
  /** Each selected destination's cursor as the log opened, as its file holds it. */
  opened: ReadonlyMap<string, number>;
  /** Longest time a moved cursor waits before it is written to disk. */
  syncMs: number;
  end: SyncedEnd;
  files: SegmentFiles;
  clock: Clock;
  logger: Logger;
}

export class DestinationCursors {
  private readonly cursors: Map<string, number>;
  /** What the cursor files hold. */
  private readonly persisted: Map<string, number>;
  private timer: TimerHandle | undefined;
  private persisting: Promise<void> = Promise.resolve();
  private stopped = false;
  /** Failures to persist: an ERROR at once, then at most one a minute. */
  private readonly failures = createLogThrottle();
  private failing = 0;

  constructor(private readonly options: DestinationCursorsOptions) {
    this.cursors = new Map(options.opened);
    this.persisted = new Map(options.opened);
  }

  get(destination: string): number | undefined {
    return this.cursors.get(destination);
  }

  /** Moves a destination's cursor forward (never back, never past the end); persisted within `syncMs`. */
  advance(destination: string, position: number): void {
    const current = this.cursors.get(destination);
    if (current === undefined || position <= current) return;
    this.cursors.set(destination, Math.min(position, this.options.end.position));
    this.schedulePersist();
  }

  /** The cursor furthest behind, in memory. */
  slowest(): { destination: string; position: number } | undefined {
    return slowestCursor(this.cursors);
  }

  /** Writes the moved cursors within `syncMs` (unless stopped); once at a time. */
  schedulePersist(): void {
    if (this.timer !== undefined || this.stopped) return;
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = undefined;
      this.persisting = this.persisting
        .then(() => this.persist())
        .then(() => this.recovered())
        .catch((error: unknown) => this.failed(error));
    }, this.options.syncMs);
  }

  /** No more timed writes; `flush` writes what is left. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Waits for a write under way, then writes every cursor that moved; rejects if that fails. */
  async flush(): Promise<void> {
    await this.persisting;
    await this.persist();
  }

  private async persist(): Promise<void> {
    const { directory, files, end } = this.options;
    const changed = [...this.cursors].filter(
      ([destination, position]) => this.persisted.get(destination) !== position,
    );
    let failure: { error: unknown } | undefined;
    if (changed.length > 0) {
      try {
        for (const [destination, position] of changed) await writeCursor(directory, destination, position);
        await syncDirectory(directory);
        for (const [destination, position] of changed) this.persisted.set(destination, position);
      } catch (error) {
        failure = { error };
      }
    }
    // When the cursors cannot be written, what every destination has written goes by the cursors
    // in memory, to free the space they need.
    const upTo =
      slowestCursor(failure === undefined ? this.persisted : this.cursors)?.position ?? end.position;
    await files.deleteWrittenUpTo(upTo);
    if (failure !== undefined) throw failure.error;
  }

  private recovered(): void {
    if (this.failing === 0) return;
    this.options.logger.info("Audit event queue: destination cursors are written again", {
      directory: this.options.directory,
      failedAttempts: this.failing,
    });
    this.failing = 0;
  }

  private failed(error: unknown): void {
    this.failing += 1;
    const failures = this.failures.admit("persist", this.options.clock.now());
    if (failures !== undefined) {
      this.options.logger.error("Audit event queue: could not write destination cursors; will retry", {
        directory: this.options.directory,
        error: error instanceof Error ? error.message : String(error),
        failures,
      });
    }
    this.schedulePersist();
  }
}
