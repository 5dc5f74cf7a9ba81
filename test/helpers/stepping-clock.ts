/**
 * A Clock whose time moves only when a test says so, stepping timer by timer (unlike
 * manual-clock.ts, which jumps to the target first): `advance(ms)` runs every timer that falls
 * due, in due-time order, with `now()` equal to the timer's due time while it runs; timers set
 * by those callbacks run too when they fall inside the window.
 */
import type { Clock, TimerHandle } from "../../core/ports.ts";

interface Timer {
  id: number;
  due: number;
  callback: () => void;
}

export interface SteppingClock extends Clock {
  advance(ms: number): Promise<void>;
  /** Moves time to an absolute epoch ms (must not go back). */
  advanceTo(epochMs: number): Promise<void>;
  pendingTimers(): number;
}

export function createSteppingClock(startMs = Date.UTC(2026, 0, 1)): SteppingClock {
  let now = startMs;
  let nextId = 1;
  const timers = new Map<number, Timer>();

  async function advanceTo(target: number): Promise<void> {
    if (target < now) throw new Error("SteppingClock cannot go back in time");
    for (;;) {
      let next: Timer | undefined;
      for (const timer of timers.values()) {
        if (timer.due <= target && (next === undefined || timer.due < next.due)) next = timer;
      }
      if (next === undefined) break;
      timers.delete(next.id);
      now = Math.max(now, next.due);
      next.callback();
      // Let promise chains started by the callback settle before the next timer.
      for (let i = 0; i < 20; i++) await Promise.resolve();
      await new Promise((resolve) => setImmediate(resolve));
    }
    now = target;
  }

  return {
    now: () => now,
    setTimeout(callback: () => void, ms: number): TimerHandle {
      const id = nextId++;
      timers.set(id, { id, due: now + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout(handle: TimerHandle) {
      timers.delete(handle as number);
    },
    advance: (ms) => advanceTo(now + ms),
    advanceTo,
    pendingTimers: () => timers.size,
  };
}
