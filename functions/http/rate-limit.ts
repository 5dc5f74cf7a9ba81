/**
 * Per-client HTTP rate limit: one fixed-window hit per request, keyed by the client IP (IPv6 by
 * /64). Every counted response carries `x-ratelimit-limit`, `x-ratelimit-remaining` and
 * `x-ratelimit-reset` (Unix seconds); a refused one also `retry-after` (seconds to the reset).
 * Requests that later fail still count. A refused request is reported to `refusals` (a throttled
 * WARN and the scrape metric), so that no refusal goes unseen.
 */

import type { MiddlewareHandler } from "hono";
import type { Clock } from "../../core/ports.ts";
import {
  clientKeyOf,
  type FixedWindowLimiter,
  type RateLimitDecision,
  type RateLimitRefusals,
} from "../../core/ratelimit/index.ts";
import type { ClientIpResolver, ErrorBodyFormatter, HttpProblem } from "./problem.ts";
import { setResponseHeader } from "./response-headers.ts";

export interface RateLimitOptions {
  limiter: FixedWindowLimiter;
  clientIp: ClientIpResolver;
  clock: Clock;
  formatError: ErrorBodyFormatter;
  /** Where refused requests are reported (rate-limit-refusals.ts). */
  refusals?: RateLimitRefusals;
}

export const RATE_LIMITED: HttpProblem = { status: 429, reason: "Rate limit exceeded" };

/** The headers a counted response carries; `Retry-After` too when the hit was refused. */
export function rateLimitHeaders(decision: RateLimitDecision, clock: Clock): Array<[string, string]> {
  const headers: Array<[string, string]> = [
    ["X-RateLimit-Limit", String(decision.limit)],
    ["X-RateLimit-Remaining", String(decision.remaining)],
    ["X-RateLimit-Reset", String(Math.ceil(decision.resetAtMs / 1000))],
  ];
  if (!decision.allowed) {
    headers.push(["Retry-After", String(Math.max(1, Math.ceil((decision.resetAtMs - clock.now()) / 1000)))]);
  }
  return headers;
}

export function rateLimit(options: RateLimitOptions): MiddlewareHandler {
  const { limiter, clientIp, clock, formatError, refusals } = options;
  return async function rateLimit(c, next) {
    const ip = clientIp(c);
    const decision = await limiter.hit(clientKeyOf(ip));
    // Set before the response exists, so whatever answers (even an error) carries them.
    for (const [name, value] of rateLimitHeaders(decision, clock)) setResponseHeader(c, name, value);
    if (!decision.allowed) {
      refusals?.refused(ip);
      return formatError(c, RATE_LIMITED);
    }
    await next();
  };
}
