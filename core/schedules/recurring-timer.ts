/**
 * Runs work on every occurrence of a Recurrence (heartbeat, uptime monitor): optionally once at
 * start, then at each occurrence computed from the clock. A run still in flight when the next
 * occurrence comes makes that occurrence skipped (never two at once); a run that throws is logged,
 * never stops the timer. Occurrences further away than a timer can wait (about 24.8 days) are
 * reached in steps. stop() cancels the timer and waits for a run in flight at most `stopWaitMs`.
 */

import type { Clock, Logger, Stoppable, TimerHandle } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import type { Recurrence } from "../shared/recurrence.ts";
import { settlesWithin } from "../shared/settles-within.ts";

export interface RecurringTimerOptions {
  /** One run, for log lines: "heartbeat", "uptime report". */
  what: string;
  recurrence: Recurrence;
  /** Also run once at start (not waited for). */
  runAtStart: boolean;
  run(): Promise<void>;
  clock: Clock;
  logger: Logger;
  /** Longest wait for a run in flight at stop (default 2000 ms). */
  stopWaitMs?: number | undefined;
}

export interface RecurringTimer extends Stoppable {
  /** Runs started so far. */
  runs(): number;
  /** Clock time of the next occurrence, or undefined when none is left. */
  nextAt(): number | undefined;
}

/** setTimeout's longest delay (2^31 − 1 ms); longer waits are made in steps. */
const MAX_TIMER_MS = 2_147_483_647;

export function startRecurringTimer(options: RecurringTimerOptions): RecurringTimer {
  const { what, recurrence, clock, logger } = options;
  let timer: TimerHandle | undefined;
  let inFlight: Promise<void> | undefined;
  let nextAt: number | undefined;
  let runs = 0;
  let stopped: Promise<void> | undefined;

  function runOnce(): void {
    if (inFlight !== undefined) {
      logger.warn(`the previous ${what} is still running; this one is skipped`, {
        schedule: recurrence.expression,
      });
      return;
    }
    runs += 1;
    inFlight = options
      .run()
      .catch((error: unknown) => {
        logger.error(`the ${what} failed unexpectedly`, { error: describeError(error) });
      })
      .finally(() => {
        inFlight = undefined;
      });
  }

  function arm(): void {
    if (stopped !== undefined) return;
    nextAt = recurrence.next(clock.now());
    if (nextAt === undefined) {
      logger.warn(`the ${what} schedule has no further occurrence`, { schedule: recurrence.expression });
      return;
    }
    waitUntil(nextAt);
  }

  function waitUntil(at: number): void {
    const wait = at - clock.now();
    if (wait > MAX_TIMER_MS) {
      timer = clock.setTimeout(() => waitUntil(at), MAX_TIMER_MS);
      return;
    }
    timer = clock.setTimeout(
      () => {
        runOnce();
        arm();
      },
      Math.max(0, wait),
    );
  }

  if (options.runAtStart) runOnce();
  arm();

  async function shutDown(): Promise<void> {
    clock.clearTimeout(timer);
    timer = undefined;
    nextAt = undefined;
    const running = inFlight;
    if (running === undefined) return;
    if (!(await settlesWithin(running, options.stopWaitMs ?? 2000, clock))) {
      logger.warn(`the ${what} still running at shutdown is abandoned`);
    }
  }

  return {
    runs: () => runs,
    nextAt: () => nextAt,
    stop() {
      stopped ??= shutDown();
      return stopped;
    },
  };
}
