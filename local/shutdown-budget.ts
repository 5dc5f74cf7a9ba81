/**
 * The 10 s between SIGTERM (or SIGINT) and the process's exit, and how they are spent: the one
 * place that says it. Times count from the signal.
 *
 * - 0 s (`listeners`), at the signal itself: the listeners that take work (the ingest API, the
 *   REST API) stop accepting it (listener-at-signal.ts), without waiting for their turn in the
 *   stop order: the parts that stop before them (the agent's) may take seconds, and meanwhile a
 *   client would still be told 202. Then the parts stop in reverse start order, one after
 *   another, each writing what it holds; a listener's turn waits for its requests in flight.
 * - 5 s (`pointWriters`): every other time-series writer still writing — the agent's points (UDP
 *   events, health and sessions, memory, error points) and their other destinations (broker,
 *   observability platform), and the interval counters (event counts, rejected counts, the UDP
 *   and audit queues' metrics) — is abandoned the same way. They stop before the audit pipeline
 *   (they started after it), so this leaves the audit destinations at least 3.5 s whatever the
 *   agent's destinations do. What they held is lost: one ERROR per writer says what, but these
 *   are points, not audit events, and the exit status stays 0.
 * - 8.5 s (`destinations`): audit destinations that are still writing (hung, refusing,
 *   retrying) are abandoned. Their write in flight is not awaited (a request to a server that
 *   stopped answering can hang until its own timeout), and nothing more is handed to them. With
 *   the durable queue what they had not written stays in the log and is written after the next
 *   start (a WARN per destination, exit status 0); without it, it is lost (one ERROR counting
 *   it, exit status 1).
 * - 8.5 s too (`requestsInFlight`), right after the destinations: requests still in flight on
 *   the listeners that take work (a client still uploading, a REST call waiting on a platform
 *   that does not answer) are given up, their connections closed unanswered: the listener's stop, and every part that stops
 *   after it, would otherwise wait for them past the 10 s. A client that got no answer was told
 *   nothing, and may send again.
 * - right after: the durable log persists the cursors of what was written and closes, and the
 *   log files are flushed; well under a second.
 * - 9.5 s (`hardStop`): if stopping still has not finished, something that should not hang did:
 *   one ERROR and exit status 1, before the 10 s are up.
 */
import type { Clock, TimerHandle } from "../core/ports.ts";

export const SHUTDOWN_BUDGET_MS = {
  listeners: 0,
  pointWriters: 5_000,
  destinations: 8_500,
  requestsInFlight: 8_500,
  hardStop: 9_500,
} as const;

export interface ShutdownSchedule {
  /** The shutdown begins (the signal); the times of `at` count from the first call. */
  begin(): void;
  /**
   * Runs `action` `offsetMs` after the shutdown begins; never if it does not. At 0 it runs inside
   * begin() itself (or at once, when the shutdown has begun), before anything else stops.
   */
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
    if (offsetMs <= 0) {
      action();
      return;
    }
    const waitMs = Math.max(0, (begunAt as number) + offsetMs - clock.now());
    timers.push(clock.setTimeout(action, waitMs));
  }

  return {
    begin() {
      if (begunAt !== undefined || disposed) return;
      begunAt = clock.now();
      // Actions planned for the same time share one timer and run in the order they were planned
      // (the audit destinations, planned as they start, are given up before the requests in flight
      // on the listeners started after them). Timers of their own, their waits computed a
      // millisecond apart, could fire the other way round.
      const byOffset = new Map<number, Array<() => void>>();
      for (const { offsetMs, action } of planned) {
        const actions = byOffset.get(offsetMs);
        if (actions === undefined) byOffset.set(offsetMs, [action]);
        else actions.push(action);
      }
      for (const [offsetMs, actions] of byOffset) {
        arm(offsetMs, () => {
          for (const action of actions) action();
        });
      }
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
