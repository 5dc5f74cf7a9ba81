/**
 * Per-client HTTP rate limit (CONTRACT §3): one fixed-window hit per request, keyed by the
 * client IP (IPv6 by /64). Every counted response carries `x-ratelimit-limit`,
 * `x-ratelimit-remaining` and `x-ratelimit-reset` (Unix seconds); a refused one also
 * `retry-after` (seconds to the reset). Requests that later fail still count.
 */

import type { MiddlewareHandler } from "hono";
import type { Clock } from "../../core/ports.ts";
import { clientKeyOf } from "../../core/ratelimit/client-key.ts";
import type { FixedWindowLimiter, RateLimitDecision } from "../../core/ratelimit/fixed-window-limiter.ts";
import type { ClientIpResolver, ErrorBodyFormatter, HttpProblem } from "./problem.ts";
import { setResponseHeader } from "./response-headers.ts";

export interface RateLimitOptions {
  limiter: FixedWindowLimiter;
  clientIp: ClientIpResolver;
  clock: Clock;
  formatError: ErrorBodyFormatter;
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
  const { limiter, clientIp, clock, formatError } = options;
  return async function rateLimit(c, next) {
    const decision = await limiter.hit(clientKeyOf(clientIp(c)));
    // Set before the response exists, so whatever answers (even an error) carries them.
    for (const [name, value] of rateLimitHeaders(decision, clock)) setResponseHeader(c, name, value);
    if (!decision.allowed) return formatError(c, RATE_LIMITED);
    await next();
  };
}
