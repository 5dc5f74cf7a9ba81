/**
 * A Clock tests move by hand that shows what is waiting on it: `pending()` lists how long until
 * each timer is due, so a test can wait (on real time) until code talking to a real server over
 * loopback has come back and started a wait of a given length, then move time across it.
 */
import type { Clock, TimerHandle } from "../../core/ports.ts";

export interface WaitingClock extends Clock {
  /** Moves time forward, firing the timers that fall due, in due order. */
  advance(ms: number): void;
  /** Milliseconds until each pending timer is due, soonest first. */
  pending(): number[];
}

export function createWaitingClock(startMs = Date.UTC(2026, 11, 5, 8)): WaitingClock {
  let now = startMs;
  let nextId = 1;
  const timers = new Map<number, { due: number; callback: () => void }>();
  return {
    now: () => now,
    setTimeout(callback, ms): TimerHandle {
      const id = nextId++;
      timers.set(id, { due: now + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const target = now + ms;
      for (;;) {
        const due = [...timers]
          .filter(([, timer]) => timer.due <= target)
          .sort((a, b) => a[1].due - b[1].due)[0];
        if (due === undefined) break;
        timers.delete(due[0]);
        now = due[1].due;
        due[1].callback();
      }
      now = target;
    },
    pending: () => [...timers.values()].map((timer) => timer.due - now).sort((a, b) => a - b),
  };
}
