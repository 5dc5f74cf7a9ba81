/**
 * Whether some work settles within a time on a clock: how a stop gives a round, a run or a write
 * a bounded wait and then goes on without it (the pollers, the recurring timers).
 */
import type { Clock, TimerHandle } from "../ports.ts";

/** Resolves true when `work` settles within `ms` on `clock`, false otherwise. */
export function settlesWithin(work: Promise<unknown>, ms: number, clock: Clock): Promise<boolean> {
  let timer: TimerHandle | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = clock.setTimeout(() => resolve(false), ms);
  });
  return Promise.race([work.then(() => true), timeout]).finally(() => clock.clearTimeout(timer));
}
