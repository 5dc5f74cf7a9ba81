/**
 * The 10 s between SIGTERM (or SIGINT) and the process's exit, and how they are spent: the one
 * place that says it. Times count from the signal.
 *
 * - 0 s: every listener stops taking work (ingest refuses new events) and the parts stop in
 *   reverse start order, one after another, each writing what it holds.
 * - 5 s (`pointWriters`): every other time-series writer still writing — the agent's points (UDP
 *   events, health and sessions, memory, error points) and their other destinations (broker,
 *   observability platform), and the interval counters (event counts, rejected counts, the UDP
 *   and audit queues' metrics) — is abandoned the same way. They stop before the audit pipeline
 *   (they started after it), so this leaves the audit destinations at least 3.5 s whatever the
 *   agent's destinations do. What they held is lost: one ERROR per writer says what, but these
 *   are points, not audit events, and the exit status stays 0.
 * - 8.5 s (`destinations`): audit destinations that are still writing (hung, refusing, retrying)
 *   are abandoned. Their write in flight is not awaited (a request to a server that stopped
 *   answering can hang until its own timeout), and nothing more is handed to them. With the
 *   durable queue what they had not written stays in the log and is written after the next
 *   start (a WARN per destination, exit status 0); without it, it is lost (one ERROR counting
 *   it, exit status 1).
 * - right after: the durable log persists the cursors of what was written and closes, and the
 *   log files are flushed; well under a second.
 * - 9.5 s (`hardStop`): if stopping still has not finished, something that should not hang did:
 *   one ERROR and exit status 1, before the 10 s are up.
 */
import type { Clock, TimerHandle } from "../core/ports.ts";

export const SHUTDOWN_BUDGET_MS = {
  pointWriters: 5_000,
  destinations: 8_500,
  hardStop: 9_500,
} as const;

export interface ShutdownSchedule {
  /** The shutdown begins (the signal); the times of `at` count from the first call. */
  begin(): void;
  /** Runs `action` `offsetMs` after the shutdown begins; never if it does not. */
  at(offsetMs: number, action: () => void): void;
  /** Events were lost: the process exits with status 1. */
  markEventsLost(): void;
  exitCode(): number;
  /** Cancels what has not run yet (the shutdown finished first). */
  dispose(): void;
}

export function createShutdownSchedule(clock: Clock): ShutdownSchedule {
  const planned: Array<{ offsetMs: number; action: () => void }> = [];
  const timers: TimerHandle[] = [];
  let begunAt: number | undefined;
  let disposed = false;
  let lost = false;

  function arm(offsetMs: number, action: () => void): void {
    const waitMs = Math.max(0, (begunAt as number) + offsetMs - clock.now());
    timers.push(clock.setTimeout(action, waitMs));
  }

  return {
    begin() {
      if (begunAt !== undefined || disposed) return;
      begunAt = clock.now();
      for (const { offsetMs, action } of planned) arm(offsetMs, action);
    },
    at(offsetMs, action) {
      if (disposed) return;
      if (begunAt === undefined) planned.push({ offsetMs, action });
      else arm(offsetMs, action);
    },
    markEventsLost() {
      lost = true;
    },
    exitCode: () => (lost ? 1 : 0),
    dispose() {
      disposed = true;
      for (const timer of timers) clock.clearTimeout(timer);
      timers.length = 0;
    },
  };
}
