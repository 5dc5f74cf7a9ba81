/**
 * The beat every platform poller of the agent runs on (app names, engine health, user sessions):
 * - the first round runs at start (Butler SOS waited one interval first), then one every
 *   `intervalMs` on a fixed beat, however long a round takes;
 * - a beat that finds the previous round still running is skipped with a WARN (at most once a
 *   minute, with the number skipped), so rounds never overlap;
 * - start-up waits for the first round at most `startWaitMs` (0: not at all), so a slow or
 *   unreachable platform never holds up or fails the agent;
 * - stop() cancels the beat and aborts a round in flight: its signal fires, so the calls it waits
 *   on are given up at once (a platform that accepts connections and never answers would
 *   otherwise hold the shutdown for a whole call timeout). A poll's answer is not worth the
 *   shutdown's time: the next start polls again. stop() then waits for the round to end at most
 *   `stopWaitMs`, for a round whose work does not heed the signal.
 * A round reports its own failures; one that throws anyway is logged, never crashes the beat.
 */

import { createLogThrottle } from "../logging/index.ts";
import type { Clock, Logger, Stoppable, TimerHandle } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";
import { settlesWithin } from "../shared/settles-within.ts";

export interface PeriodicPollOptions {
  /** What one round is, for log lines: "app-name fetch", "health round". */
  what: string;
  intervalMs: number;
  /** One round; `signal` aborts when the poll stops, and the round should end then. */
  run(signal: AbortSignal): Promise<void>;
  clock: Clock;
  logger: Logger;
  /** Added to every log line (e.g. the server polled). */
  fields?: Readonly<Record<string, unknown>> | undefined;
  /** Longest wait for the first round at start (default 0: start does not wait). */
  startWaitMs?: number | undefined;
  /** Longest wait for a round in flight at stop (default 2000 ms). */
  stopWaitMs?: number | undefined;
}

export interface PeriodicPollStats {
  /** Rounds started. */
  rounds: number;
  /** Beats skipped because the previous round was still running. */
  skipped: number;
}

export interface PeriodicPoll extends Stoppable {
  stats(): PeriodicPollStats;
  /** True once stop() was called: a round ending now ends with shutdown. */
  stopping(): boolean;
}

const DEFAULT_STOP_WAIT_MS = 2000;

export async function startPeriodicPoll(options: PeriodicPollOptions): Promise<PeriodicPoll> {
  const { what, intervalMs, clock, logger } = options;
  const fields = options.fields ?? {};
  const throttle = createLogThrottle();
  const stats: PeriodicPollStats = { rounds: 0, skipped: 0 };
  let timer: TimerHandle | undefined;
  let inFlight: { round: Promise<void>; abort: AbortController } | undefined;
  let stopped: Promise<void> | undefined;

  async function runOnce(signal: AbortSignal): Promise<void> {
    try {
      await options.run(signal);
    } catch (error) {
      logger.error(`the ${what} failed unexpectedly`, { ...fields, error: describeError(error) });
    }
  }

  /** Starts a round unless one is running; answers the round it started. */
  function roundUnlessRunning(): Promise<void> | undefined {
    if (inFlight !== undefined) {
      stats.skipped += 1;
      const skipped = throttle.admit("skipped", clock.now());
      if (skipped !== undefined) {
        logger.warn(`the previous ${what} is still running; this one is skipped`, {
          ...fields,
          intervalMs,
          skipped,
        });
      }
      return undefined;
    }
    stats.rounds += 1;
    const abort = new AbortController();
    const round = runOnce(abort.signal).finally(() => {
      inFlight = undefined;
    });
    inFlight = { round, abort };
    return round;
  }

  function beat(): void {
    timer = clock.setTimeout(beat, intervalMs);
    void roundUnlessRunning();
  }

  const first = roundUnlessRunning() ?? Promise.resolve();
  timer = clock.setTimeout(beat, intervalMs);
  const startWaitMs = options.startWaitMs ?? 0;
  if (startWaitMs > 0 && !(await settlesWithin(first, startWaitMs, clock))) {
    logger.warn(`the first ${what} is still running; start-up goes on without waiting for it`, fields);
  }

  async function shutDown(): Promise<void> {
    clock.clearTimeout(timer);
    timer = undefined;
    const running = inFlight;
    if (running === undefined) return;
    running.abort.abort();
    if (!(await settlesWithin(running.round, options.stopWaitMs ?? DEFAULT_STOP_WAIT_MS, clock))) {
      logger.warn(`the ${what} still running at shutdown is abandoned`, fields);
    }
  }

  return {
    stats: () => ({ ...stats }),
    stopping: () => stopped !== undefined,
    stop() {
      stopped ??= shutDown();
      return stopped;
    },
  };
}
