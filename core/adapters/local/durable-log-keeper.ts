/**
 * Opens the durable audit log (segment-log.ts) as soon as it can be opened. A queue directory
 * that cannot be created or opened at start (a read-only file system, a regular file in the way,
 * no permission, no space) does not stop Steward: the rest starts, the queue answers 503 while
 * the log is closed (recovering-event-queue.ts), and opening is tried again every `retryMs`.
 * The first failure is one ERROR naming the directory and the OS's reason; later attempts are
 * logged at DEBUG, unless the reason changes (a new ERROR). An INFO says when the log opened after
 * failing, and for how long it was closed.
 *
 * Stopping waits for an attempt in flight and closes the log if it is open: start this before
 * the destination writers and stop it after them, so that their last cursors are persisted.
 */
import type { Service, TimerHandle } from "../../ports.ts";
import { openSegmentLog, type SegmentLog, type SegmentLogOptions } from "./segment-log.ts";

export interface DurableLogKeeperOptions extends SegmentLogOptions {
  /** Time between two attempts to open the log (default 5000 ms). */
  retryMs?: number;
}

export interface DurableLogKeeperDeps {
  /** Opens the log (default: openSegmentLog); tests inject failures. */
  open?: (options: SegmentLogOptions) => Promise<SegmentLog>;
}

/** Why the log is closed: the last attempt's error and when the first attempt failed. */
export interface LogProblem {
  readonly reason: string;
  readonly sinceMs: number;
}

export interface DurableLogKeeper extends Service {
  /** The open log; undefined while it cannot be opened. */
  log(): SegmentLog | undefined;
  /** Why the log is closed; undefined once it is open. */
  problem(): LogProblem | undefined;
  /** Calls `listener` with the log once it is open (at once if it is). */
  whenOpen(listener: (log: SegmentLog) => void): void;
}

export const DEFAULT_OPEN_RETRY_MS = 5000;

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Tries to open the log once before resolving; never rejects. */
export async function startDurableLogKeeper(
  options: DurableLogKeeperOptions,
  deps: DurableLogKeeperDeps = {},
): Promise<DurableLogKeeper> {
  const { clock, logger, directory } = options;
  const open = deps.open ?? openSegmentLog;
  const retryMs = options.retryMs ?? DEFAULT_OPEN_RETRY_MS;
  let log: SegmentLog | undefined;
  let problem: LogProblem | undefined;
  let failedAttempts = 0;
  let timer: TimerHandle | undefined;
  let attempt: Promise<void> = Promise.resolve();
  let stopped = false;
  let listeners: Array<(log: SegmentLog) => void> = [];

  async function tryOpen(): Promise<void> {
    let opened: SegmentLog;
    try {
      opened = await open(options);
    } catch (error) {
      failedAttempts += 1;
      const reason = describe(error);
      const fields = { directory, error: reason, retryInMs: retryMs };
      if (problem?.reason === reason)
        logger.debug("Audit event queue: its log still cannot be opened", fields);
      else logger.error("Audit event queue cannot open its log; ingest answers 503 until it can", fields);
      problem = { reason, sinceMs: problem?.sinceMs ?? clock.now() };
      if (!stopped) timer = clock.setTimeout(retry, retryMs);
      return;
    }
    if (stopped) {
      await opened.close().catch(() => undefined);
      return;
    }
    log = opened;
    if (problem !== undefined) {
      logger.info("Audit event queue: its log is open; events are accepted again", {
        directory,
        closedForMs: clock.now() - problem.sinceMs,
        failedAttempts,
      });
    }
    problem = undefined;
    const waiting = listeners;
    listeners = [];
    for (const listener of waiting) {
      try {
        listener(opened);
      } catch (error) {
        // Never a rejection nobody awaits (a retry runs on a timer).
        logger.error("Audit event queue: starting over its opened log failed", {
          directory,
          error: describe(error),
        });
      }
    }
  }

  function retry(): void {
    timer = undefined;
    attempt = tryOpen();
  }

  attempt = tryOpen();
  await attempt;

  let stopping: Promise<void> | undefined;
  return {
    log: () => log,
    problem: () => problem,
    whenOpen(listener) {
      if (log !== undefined) listener(log);
      else listeners.push(listener);
    },
    stop() {
      stopping ??= (async () => {
        stopped = true;
        if (timer !== undefined) clock.clearTimeout(timer);
        timer = undefined;
        await attempt;
        listeners = [];
        await log?.close();
      })();
      return stopping;
    },
  };
}
