/** A Clock tests move by hand; timers fire when `advance` passes their due time. */

import type { Clock, TimerHandle } from "../../core/ports.ts";

export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

export function createManualClock(startMs = Date.UTC(2026, 0, 1)): ManualClock {
  let now = startMs;
  let nextId = 1;
  const timers = new Map<number, { due: number; callback: () => void }>();
  const fireDue = () => {
    for (const [id, timer] of [...timers].sort((a, b) => a[1].due - b[1].due)) {
      if (timer.due > now) break;
      timers.delete(id);
      timer.callback();
    }
  };
  return {
    now: () => now,
    setTimeout(callback, ms): TimerHandle {
      const id = nextId++;
      timers.set(id, { due: now + ms, callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      now += ms;
      fireDue();
    },
    set(ms) {
      now = ms;
      fireDue();
    },
  };
}
