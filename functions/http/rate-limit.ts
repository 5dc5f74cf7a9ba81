/**
 * Per-client HTTP rate limit (CONTRACT §3): one fixed-window hit per request, keyed by the
 * client IP (IPv6 by /64). Every counted response carries `x-ratelimit-limit`,
 * `x-ratelimit-remaining` and `x-ratelimit-reset` (Unix seconds); a refused one also
 * `retry-after` (seconds to the reset). Requests that later fail still count.
 */

import type { Context, MiddlewareHandler } from "hono";
import type { Clock } from "../../core/ports.ts";
import { clientKeyOf } from "../../core/ratelimit/client-key.ts";
import type { FixedWindowLimiter, RateLimitDecision } from "../../core/ratelimit/fixed-window-limiter.ts";
import type { ClientIpResolver, ErrorBodyFormatter } from "./problem.ts";
import { setResponseHeader } from "./response-headers.ts";

export interface RateLimitOptions {
  limiter: FixedWindowLimiter;
  clientIp: ClientIpResolver;
  clock: Clock;
  formatError: ErrorBodyFormatter;
}

function setRateLimitHeaders(c: Context, decision: RateLimitDecision): void {
  setResponseHeader(c, "X-RateLimit-Limit", String(decision.limit));
  setResponseHeader(c, "X-RateLimit-Remaining", String(decision.remaining));
  setResponseHeader(c, "X-RateLimit-Reset", String(Math.ceil(decision.resetAtMs / 1000)));
}

export function rateLimit(options: RateLimitOptions): MiddlewareHandler {
  const { limiter, clientIp, clock, formatError } = options;
  return async function rateLimit(c, next) {
    const decision = await limiter.hit(clientKeyOf(clientIp(c)));
    // Set before the response exists, so whatever answers (even an error) carries them.
    setRateLimitHeaders(c, decision);
    if (!decision.allowed) {
      const seconds = Math.max(1, Math.ceil((decision.resetAtMs - clock.now()) / 1000));
      setResponseHeader(c, "Retry-After", String(seconds));
      return formatError(c, { status: 429, reason: "Rate limit exceeded" });
    }
    await next();
  };
}
