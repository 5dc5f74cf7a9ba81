/**
 * A rate limit of alerts whose windows several processes share, on the RateLimitStore (in the
 * cloud, the DynamoDB rate-limit table, counted with atomic increments): the cloud functions run
 * in as many instances as invocations arrive, and an in-process window (alert-rate-limit.ts)
 * would let each instance send its own alert of the same app. An alert goes when it is the first
 * for its destination and key in the window; the windows are aligned to their length (a 300 s
 * window runs 12:00–12:05, 12:05–12:10), where the process's own opens at the first alert, so two
 * alerts either side of a window's end both go. A store that cannot be reached lets the alert go,
 * with a WARN: an alert sent twice is better than one not sent.
 */
import type { Logger, RateLimitStore } from "../ports.ts";
import { describeError } from "../shared/describe-error.ts";

export interface SharedAlertRateLimit {
  /** Resolves true when an alert for `key` may go now (and closes the window to others). */
  take(key: string, windowSeconds: number): Promise<boolean>;
}

export interface SharedAlertRateLimitDeps {
  readonly store: RateLimitStore;
  /** The destination whose windows these are: part of every key, so destinations keep theirs apart. */
  readonly destination: string;
  readonly now: () => number;
  readonly logger: Logger;
}

export function createSharedAlertRateLimit(deps: SharedAlertRateLimitDeps): SharedAlertRateLimit {
  const { store, destination, now, logger } = deps;
  return {
    async take(key, windowSeconds) {
      if (windowSeconds <= 0) return true;
      const windowMs = windowSeconds * 1000;
      const start = Math.floor(now() / windowMs) * windowMs;
      try {
        return (await store.increment(`alert#${destination}#${key}`, start, windowMs)) === 1;
      } catch (error) {
        logger.warn("The shared alert rate limit could not be read; the alert goes", {
          destination,
          error: describeError(error),
        });
        return true;
      }
    },
  };
}
