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
import { type RequestStep, stepMiddleware } from "./request-step.ts";
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

const KEY_MEMO_LIMIT = 1024;

/**
 * `clientKeyOf` remembering recent answers: the same few clients send most requests, and the key
 * (IPv6 /64 grouping, IPv4-mapped unwrapping) is otherwise parsed again on every one. Bounded
 * (cleared when full) so a flood of distinct addresses cannot grow it.
 */
export function createClientKeyMemo(): (ip: string) => string {
  const memo = new Map<string, string>();
  return function clientKey(ip) {
    const known = memo.get(ip);
    if (known !== undefined) return known;
    const key = clientKeyOf(ip);
    if (memo.size >= KEY_MEMO_LIMIT) memo.clear();
    memo.set(ip, key);
    return key;
  };
}

export function rateLimitStep(options: RateLimitOptions): RequestStep {
  const { limiter, clientIp, clock, formatError } = options;
  const clientKey = createClientKeyMemo();
  return async function rateLimit(c) {
    const decision = await limiter.hit(clientKey(clientIp(c)));
    // Set before the response exists, so whatever answers (even an error) carries them.
    setRateLimitHeaders(c, decision);
    if (!decision.allowed) {
      const seconds = Math.max(1, Math.ceil((decision.resetAtMs - clock.now()) / 1000));
      setResponseHeader(c, "Retry-After", String(seconds));
      return formatError(c, { status: 429, reason: "Rate limit exceeded" });
    }
    return undefined;
  };
}

export function rateLimit(options: RateLimitOptions): MiddlewareHandler {
  return stepMiddleware(rateLimitStep(options));
}
