/**
 * The rate-limit module's only door: code outside core/ratelimit/ imports this file and nothing
 * else of the module, so its counters and keys can be rearranged without touching the listeners
 * that use them. It gives the fixed-window limiter over a shared store and the in-memory counter
 * of hot paths, the key of a client IP, and how refusals are logged and counted.
 */
export { clientKeyOf } from "./client-key.ts";
export { createFixedWindowCounter, type FixedWindowCounter } from "./fixed-window-counter.ts";
export {
  createFixedWindowLimiter,
  type FixedWindowLimiter,
  type RateLimitDecision,
} from "./fixed-window-limiter.ts";
export { createRateLimitRefusals, type RateLimitRefusals } from "./rate-limit-refusals.ts";
export { RateLimitStoreError } from "./rate-limit-store-error.ts";
export { declareRateLimitedMetric, type RateLimitedMetric } from "./rate-limited-metric.ts";
