import type { Clock, TimerHandle } from "./ports.ts";

/** The real clock. Tests inject their own Clock instead. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle: TimerHandle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
