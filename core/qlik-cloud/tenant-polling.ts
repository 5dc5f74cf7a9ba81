/**
 * Polling a tenant: each of its inputs (poll-inputs.ts) reads on `poll.interval` (once at start,
 * which is the catch-up after a stop) from where its persisted cursor says it had read:
 * - a first start, with no cursor, reads back `poll.initialHours` and no further; the runs it
 *   finds that finished before the polling began are marked `firstLookBack`: recorded (the log
 *   line, the point) but not alerted, because an operator who switches a tenant on wants its
 *   failures from now on, not a day of old ones in the mailbox. One INFO line per input says how
 *   many failed or canceled runs were recorded so. From the first stored cursor on (a later start
 *   too), every run is alerted as it comes;
 * - a round takes every run it reads into the intake (durable, de-duplicated: a run found by the
 *   webhook before is counted a duplicate, one found by polling before is passed over silently);
 * - only once all of them are taken does the cursor move, to the round's start less SETTLE_MS:
 *   a reload that ended just before the round may appear in the APIs a moment late, so the next
 *   round reads those minutes again. A round that fails leaves the cursor where it was, so the
 *   next one reads the same time again (its lag grows on /metrics meanwhile);
 * - each input has its own timer and abort signal, and each tenant its own client, so one slow
 *   or failing tenant, or input, holds up no other. Stopping aborts the calls in flight.
 * A round is also there on its own (createTenantPollRound), for a runtime that polls on an outside
 * schedule: the cloud's scheduled function runs one round of each input per invocation.
 */

import { createLogThrottle } from "../logging/index.ts";
import type { Clock, CloudCursorStore, Logger, Stoppable, TenantClient } from "../ports.ts";
import { startRecurringTimer } from "../schedules/index.ts";
import { describeError } from "../shared/describe-error.ts";
import type { Recurrence } from "../shared/recurrence.ts";
import type { CloudInputMonitor, CloudPollInput } from "./cloud-input-monitor.ts";
import type { CloudReloadRun } from "./cloud-reload-run.ts";
import type { CloudRunIntake } from "./cloud-run-intake.ts";
import { POLL_INPUTS } from "./poll-inputs.ts";

/** How much of the time before a round the next round reads again. */
export const SETTLE_MS = 2 * 60_000;

/** What one round of a tenant's inputs needs: where it reads, where it hands runs, what it reports. */
export interface TenantPollRoundOptions {
  readonly tenant: string;
  readonly client: TenantClient;
  readonly initialHours: number;
  readonly cursors: CloudCursorStore;
  readonly intake: CloudRunIntake;
  readonly monitor: CloudInputMonitor;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Aborts the calls in flight; a round aborted ends quietly. */
  readonly signal: AbortSignal;
  /**
   * When a tenant with no stored cursor was first polled (firstLookBackSince): the runs that
   * finished before it are its first look-back's. Undefined for a tenant polled before.
   */
  readonly newSinceMs: number | undefined;
}

export interface TenantPollingOptions extends Omit<TenantPollRoundOptions, "signal" | "newSinceMs"> {
  readonly recurrence: Recurrence;
}

/** A round of one input: what the local timers run, and what a scheduled cloud function runs once. */
export type TenantPollRound = (input: CloudPollInput) => Promise<void>;

export interface TenantPolling extends Stoppable {
  /** Runs one round of `input` now (what the timer does); resolves when it ended. */
  round: TenantPollRound;
}

/** The inputs a tenant is polled for, in the order a round of all of them reads them. */
export const POLLED_INPUTS = Object.keys(POLL_INPUTS) as CloudPollInput[];

/** The rounds of one tenant's inputs, each reading from and moving its persisted cursor. */
export function createTenantPollRound(options: TenantPollRoundOptions): TenantPollRound {
  const { tenant, cursors, monitor, clock, logger, signal } = options;
  const throttle = createLogThrottle();
  const warn = (key: string, message: string, fields: Record<string, unknown>) => {
    const count = throttle.admit(key, clock.now());
    if (count !== undefined) logger.warn(message, { tenant, ...fields, count });
  };
  const { newSinceMs } = options;
  /** Marks a run that a new tenant's first look-back found from before the polling began. */
  const marked = (run: CloudReloadRun): CloudReloadRun =>
    newSinceMs !== undefined && Date.parse(run.finishedAt) < newSinceMs
      ? { ...run, firstLookBack: true }
      : run;

  return async function round(input) {
    const startMs = clock.now();
    const stored = await cursors.read(tenant, input);
    const fromMs = stored ?? startMs - options.initialHours * 3_600_000;
    let readUpTo = Math.max(fromMs, startMs - SETTLE_MS);
    const read = POLL_INPUTS[input](options.client, {
      tenant,
      fromMs,
      toMs: startMs,
      nowMs: startMs,
      signal,
      refused(problem) {
        monitor.event(tenant, "poll", "failed");
        warn(`refused ${input}`, "A Qlik Cloud poll read an item that is no reload run; passed over", {
          input,
          problem,
        });
      },
      cutShort(upToMs, why) {
        readUpTo = Math.max(fromMs, Math.min(readUpTo, upToMs));
        warn(`cut ${input}`, "A Qlik Cloud poll round stopped early", { input, why });
      },
    });
    let quiet = 0;
    try {
      for await (const runs of read)
        for (const run of runs.map(marked)) {
          const outcome = await options.intake.take(run);
          if (outcome === "new" && run.firstLookBack === true && run.kind !== "reloadTaskSuccess") quiet += 1;
        }
      await cursors.write(tenant, input, readUpTo);
      monitor.cursor(tenant, input, readUpTo);
      if (quiet > 0)
        logger.info(
          "First look-back of a newly polled Qlik Cloud tenant: its failed and canceled runs from before are recorded, not alerted",
          { tenant, input, runs: quiet, hours: options.initialHours },
        );
    } catch (error) {
      if (signal.aborted) return;
      monitor.error(tenant, `polling ${input} failed: ${describeError(error)}`);
      warn(`failed ${input}`, "A Qlik Cloud poll round failed; the next round reads the same time again", {
        input,
        error: describeError(error),
      });
    }
  };
}

/**
 * Reports each input's stored cursor (and so its lag) before the first round has read anything,
 * and says when a tenant with no cursor at all is first polled (now; the runs that finished before
 * are its first look-back's), or undefined for a tenant polled before.
 */
export async function firstLookBackSince(
  tenant: string,
  cursors: CloudCursorStore,
  monitor: CloudInputMonitor,
  clock: Clock,
): Promise<number | undefined> {
  let polledBefore = false;
  for (const input of POLLED_INPUTS) {
    const stored = await cursors.read(tenant, input);
    if (stored !== undefined) monitor.cursor(tenant, input, stored);
    polledBefore ||= stored !== undefined;
  }
  return polledBefore ? undefined : clock.now();
}

export async function startTenantPolling(options: TenantPollingOptions): Promise<TenantPolling> {
  const { tenant, cursors, monitor, clock, logger } = options;
  const abort = new AbortController();
  const newSinceMs = await firstLookBackSince(tenant, cursors, monitor, clock);
  const round = createTenantPollRound({ ...options, signal: abort.signal, newSinceMs });
  const timers = POLLED_INPUTS.map((input) =>
    startRecurringTimer({
      what: `Qlik Cloud poll of ${tenant}'s ${input}`,
      recurrence: options.recurrence,
      runAtStart: true,
      run: () => round(input),
      clock,
      logger,
    }),
  );
  return {
    round,
    async stop() {
      abort.abort();
      await Promise.all(timers.map((timer) => timer.stop()));
    },
  };
}
