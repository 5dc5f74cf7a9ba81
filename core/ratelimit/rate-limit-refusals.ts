/**
 * Requests refused by the per-client HTTP rate limit, made visible to the operator: a WARN at most
 * once a minute per client IP, carrying how many of that client's requests were refused since the
 * previous line (this one included), and each refusal counted for the scrape endpoint. A client
 * over the limit otherwise gets its 429s while the operator sees nothing; one line per request
 * would flood the log with exactly the traffic the limit is there to hold back.
 */
import { createLogThrottle } from "../logging/index.ts";
import type { Clock, Logger } from "../ports.ts";

export interface RateLimitRefusals {
  /** Records one request from `clientIp` refused with 429. */
  refused(clientIp: string): void;
}

export interface RateLimitRefusalsDeps {
  logger: Logger;
  clock: Clock;
  /** The per-minute limit, named in the WARN so the operator can tell whether to raise it. */
  maxPerMinute: number;
  /** Counts one refused request (the scrape metric, rate-limited-metric.ts); absent: not counted. */
  count?: () => void;
}

export function createRateLimitRefusals(deps: RateLimitRefusalsDeps): RateLimitRefusals {
  const { logger, clock, maxPerMinute, count } = deps;
  // Bounded however many addresses a client spoofs or rotates through.
  const throttle = createLogThrottle();
  return {
    refused(clientIp) {
      count?.();
      const refusedRequests = throttle.admit(clientIp, clock.now());
      if (refusedRequests === undefined) return;
      logger.warn("Client over the rate limit: its requests are refused with 429", {
        ip: clientIp,
        refusedRequests,
        maxPerMinute,
      });
    },
  };
}
