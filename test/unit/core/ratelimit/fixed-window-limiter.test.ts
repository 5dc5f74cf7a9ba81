import { describe, expect, it } from "vitest";
import { createMemoryRateLimitStore } from "../../../../core/adapters/local/memory-rate-limit-store.ts";
import { createFixedWindowLimiter } from "../../../../core/ratelimit/fixed-window-limiter.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";

describe("createFixedWindowLimiter", () => {
  it("allows maxPerWindow hits, refuses the next, and resets when the window ends", async () => {
    const clock = createManualClock(Date.UTC(2026, 0, 1, 0, 0, 10));
    const limiter = createFixedWindowLimiter(
      { maxPerWindow: 2 },
      { store: createMemoryRateLimitStore(), clock },
    );

    const first = await limiter.hit("k");
    const second = await limiter.hit("k");
    const third = await limiter.hit("k");
    clock.advance(50_000);
    const afterReset = await limiter.hit("k");

    expect([first.allowed, second.allowed, third.allowed, afterReset.allowed]).toEqual([
      true,
      true,
      false,
      true,
    ]);
    expect([first.remaining, second.remaining, third.remaining]).toEqual([1, 0, 0]);
    expect(first.resetAtMs).toBe(Date.UTC(2026, 0, 1, 0, 1, 0));
  });
});
