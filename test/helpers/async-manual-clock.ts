/**
 * A Clock whose time moves only when a test advances it; due timers fire in time order and the
 * promise chains they start settle before `advance` resolves (for async code such as batchers).
 */
import type { Clock, TimerHandle } from "../../core/ports.ts";

export interface AsyncManualClock extends Clock {
  /** Moves time forward by `ms`, firing due timers and letting promise chains settle. */
  advance(ms: number): Promise<void>;
  /** Lets pending promise chains run without moving time. */
  settle(): Promise<void>;
  pendingTimers(): number;
}

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

export function createAsyncManualClock(start = Date.parse("2026-03-08T16:46:26.181Z")): AsyncManualClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, Timer>();
  const settle = async () => {
    for (let i = 0; i < 20; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return {
    now: () => now,
    setTimeout(callback, ms): TimerHandle {
      const id = nextId++;
      timers.set(id, { id, at: now + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    settle,
    pendingTimers: () => timers.size,
    async advance(ms) {
      const target = now + ms;
      await settle();
      for (;;) {
        const next = [...timers.values()]
          .filter((t) => t.at <= target)
          .sort((a, b) => a.at - b.at || a.id - b.id)[0];
        if (next === undefined) break;
        timers.delete(next.id);
        now = next.at;
        next.callback();
        await settle();
      }
      now = target;
      await settle();
    },
  };
}
