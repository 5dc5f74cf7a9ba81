/**
 * Whether the event loop answers in time (the container health check's second condition): a timer
 * that should fire every `tickMs` notes how late it actually fired. The loop is unresponsive when a
 * tick came more than `maxDelayMs` late within the last `windowMs`, or when the next tick is
 * already overdue by more than `maxDelayMs`.
 */
import type { Clock, Stoppable, TimerHandle } from "../ports.ts";

export interface EventLoopWatchOptions {
  clock: Clock;
  /** Default 250 ms. */
  tickMs?: number | undefined;
  /** Longest acceptable delay (default 1000 ms). */
  maxDelayMs?: number | undefined;
  /** How long a late tick keeps the verdict (default 10 000 ms). */
  windowMs?: number | undefined;
}

export interface EventLoopWatch extends Stoppable {
  /** The reason the loop is judged unresponsive, or undefined when it is responsive. */
  problem(): string | undefined;
}

export function startEventLoopWatch(options: EventLoopWatchOptions): EventLoopWatch {
  const { clock } = options;
  const tickMs = options.tickMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 1000;
  const windowMs = options.windowMs ?? 10_000;
  let expectedAt = clock.now() + tickMs;
  let worst: { delayMs: number; at: number } | undefined;
  let timer: TimerHandle | undefined;

  function tick(): void {
    const now = clock.now();
    const delayMs = now - expectedAt;
    if (delayMs > maxDelayMs) worst = { delayMs, at: now };
    expectedAt = now + tickMs;
    timer = clock.setTimeout(tick, tickMs);
  }
  timer = clock.setTimeout(tick, tickMs);

  return {
    problem() {
      const now = clock.now();
      const overdue = now - expectedAt;
      if (overdue > maxDelayMs) return `event loop blocked: a timer is ${Math.round(overdue)} ms late`;
      if (worst !== undefined && now - worst.at <= windowMs) {
        return `event loop blocked for ${Math.round(worst.delayMs)} ms within the last ${windowMs / 1000} s`;
      }
      return undefined;
    },
    async stop() {
      clock.clearTimeout(timer);
      timer = undefined;
    },
  };
}
