/**
 * Backpressure reporting of a UDP queue: utilisation is the waiting count over `maxSize`. Reaching
 * `thresholdPct` logs a WARN and makes the state active; while active, a "continues" WARN at most
 * every minute; falling below 0.8 × threshold clears it with an INFO (the gap keeps a queue
 * hovering at the threshold from flapping).
 *
 * Butler SOS only looks when a datagram arrives, so a queue that drains after a burst stays
 * "active" until the next datagram; the queue also updates on completions while active.
 */
import type { Logger } from "../ports.ts";

export interface BackpressureOptions {
  label: string;
  maxSize: number;
  thresholdPct: number;
  continueEveryMs?: number;
}

export interface BackpressureMonitor {
  readonly active: boolean;
  /** Re-evaluates with the number of waiting items; logs on every change of state. */
  update(waiting: number, nowMs: number): void;
}

const CLEAR_FACTOR = 0.8;

export function createBackpressureMonitor(options: BackpressureOptions, logger: Logger): BackpressureMonitor {
  const { label, maxSize, thresholdPct } = options;
  const continueEveryMs = options.continueEveryMs ?? 60_000;
  let active = false;
  let lastWarnAtMs = 0;

  return {
    get active() {
      return active;
    },
    update(waiting, nowMs) {
      const utilisationPct = (waiting / maxSize) * 100;
      if (utilisationPct >= thresholdPct) {
        if (!active) {
          active = true;
          lastWarnAtMs = nowMs;
          logger.warn(
            `Backpressure detected for ${label}: Queue utilization ${round(utilisationPct)}% (threshold: ${thresholdPct}%)`,
          );
        } else if (nowMs - lastWarnAtMs >= continueEveryMs) {
          lastWarnAtMs = nowMs;
          logger.warn(`Backpressure continues for ${label}: Queue size ${waiting}/${maxSize}`);
        }
      } else if (active && utilisationPct < thresholdPct * CLEAR_FACTOR) {
        active = false;
        logger.info(`Backpressure cleared for ${label}: Queue utilization ${round(utilisationPct)}%`);
      }
    },
  };
}

const round = (pct: number) => Math.round(pct * 10) / 10;
