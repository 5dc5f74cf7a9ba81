/**
 * The rate limit of alerts: per key (a task, or a task and a recipient), the first alert is sent
 * and opens a window of `windowSeconds`; any other alert for that key inside the window is left
 * out and counted. A left-out alert does not extend the window, so a task that keeps failing is
 * reported once per window, not never again. The state lives in the process (a restart forgets it).
 */

export interface AlertRateLimit {
  /** True when an alert for `key` may go now (and opens its window); false when it is left out. */
  take(key: string, windowSeconds: number): boolean;
  /** Alerts left out since the start. */
  readonly suppressed: number;
}

/** Above this many open windows, closed ones are swept on the next take, so the map stays small. */
const SWEEP_ABOVE = 1000;

export function createAlertRateLimit(now: () => number = Date.now): AlertRateLimit {
  const windowEnds = new Map<string, number>();
  let suppressed = 0;
  const sweep = (at: number) => {
    for (const [key, end] of windowEnds) if (end <= at) windowEnds.delete(key);
  };
  return {
    take(key, windowSeconds) {
      if (windowSeconds <= 0) return true;
      const at = now();
      const end = windowEnds.get(key);
      if (end !== undefined && at < end) {
        suppressed += 1;
        return false;
      }
      if (windowEnds.size > SWEEP_ABOVE) sweep(at);
      windowEnds.set(key, at + windowSeconds * 1000);
      return true;
    },
    get suppressed() {
      return suppressed;
    },
  };
}
