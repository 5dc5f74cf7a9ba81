/**
 * How a UDP queue's drops and processor failures reach the log, so that a flood is visible
 * without flooding the log ("no events arrive" is what operators troubleshoot most):
 *
 * - each drop reason and processor failures: the first of a minute at WARN (failures at ERROR)
 *   with its detail, later ones at DEBUG, and the next WARN says how many were held back;
 * - the aggregated "Dropped N messages for <queue> in the last minute", at most once a minute.
 *   Butler SOS only checks when a later drop arrives, so a burst followed by silence is
 *   reported late or never; here the first drop after a report arms a timer that reports one
 *   minute later, whatever follows. `flush()` reports what is pending at once (on stop).
 *
 * Source rejections are detailed by the source validator (throttled per sender); they only
 * join the summary here.
 */

import { createLogThrottle } from "../logging/index.ts";
import type { Clock, Logger, TimerHandle } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";

export const DROP_REASONS = ["source", "size", "rate_limit", "queue_full"] as const;
export type DropReason = (typeof DROP_REASONS)[number];

export interface DropLog {
  /** One drop; `describe` builds its WARN/DEBUG line (only called when that line is written). */
  dropped(reason: DropReason, nowMs: number, describe?: () => string): void;
  /** The processor threw or rejected. */
  failed(error: unknown, nowMs: number): void;
  /** Reports pending drops now and disarms the timer. */
  flush(): void;
}

export interface DropLogOptions {
  label: string;
  intervalMs?: number;
}

export function createDropLog(options: DropLogOptions, deps: { clock: Clock; logger: Logger }): DropLog {
  const { label } = options;
  const { clock, logger } = deps;
  const intervalMs = options.intervalMs ?? 60_000;
  const throttle = createLogThrottle({ intervalMs });
  const pending: Record<DropReason, number> = { source: 0, size: 0, rate_limit: 0, queue_full: 0 };
  let total = 0;
  let timer: TimerHandle | undefined;

  function report(): void {
    timer = undefined;
    if (total === 0) return;
    const byReason: Record<string, number> = {};
    for (const reason of DROP_REASONS) {
      if (pending[reason] > 0) byReason[reason] = pending[reason];
      pending[reason] = 0;
    }
    logger.warn(`Dropped ${total} messages for ${label} in the last minute`, byReason);
    total = 0;
  }

  return {
    dropped(reason, nowMs, describe) {
      pending[reason] += 1;
      total += 1;
      if (timer === undefined) timer = clock.setTimeout(report, intervalMs);
      if (describe === undefined) return;
      const since = throttle.admit(reason, nowMs);
      if (since === undefined) {
        if (logger.isLevelEnabled("debug")) logger.debug(describe());
      } else logger.warn(describe(), since > 1 ? { heldBackSinceLastWarning: since - 1 } : undefined);
    },
    failed(error, nowMs) {
      const since = throttle.admit("failed", nowMs);
      const message = `Processing a datagram failed for ${label}`;
      if (since === undefined) {
        if (logger.isLevelEnabled("debug")) logger.debug(message, { error: describeError(error) });
      } else logger.error(message, { error: describeError(error), heldBackSinceLastError: since - 1 });
    },
    flush() {
      if (timer !== undefined) clock.clearTimeout(timer);
      report();
    },
  };
}
