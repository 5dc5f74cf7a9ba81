import { describe, expect, it } from "vitest";
import { createFixedWindowCounter } from "../../../../core/ratelimit/fixed-window-counter.ts";

const MINUTE = Date.UTC(2026, 0, 1, 12, 0, 0);

describe("createFixedWindowCounter", () => {
  it("admits `limit` hits in a window and refuses the rest of that window", () => {
    const counter = createFixedWindowCounter({ limit: 3 });

    const answers = [0, 1, 2, 3, 59_999].map((offset) => counter.tryTake(MINUTE + offset));

    expect(answers).toEqual([true, true, true, false, false]);
    expect(counter.count(MINUTE + 59_999)).toBe(3);
  });

  it("starts a new count at the epoch-aligned window boundary, not a minute after the first hit", () => {
    const counter = createFixedWindowCounter({ limit: 2 });
    counter.tryTake(MINUTE + 50_000);
    counter.tryTake(MINUTE + 50_001);

    const refusedBeforeBoundary = counter.tryTake(MINUTE + 59_999);
    const admittedAfterBoundary = [counter.tryTake(MINUTE + 60_000), counter.tryTake(MINUTE + 60_001)];

    expect(refusedBeforeBoundary).toBe(false);
    expect(admittedAfterBoundary).toEqual([true, true]);
    expect(counter.tryTake(MINUTE + 60_002)).toBe(false);
  });

  it("reports the window's admitted hits as a per-minute rate, and 0 once the window is over", () => {
    const counter = createFixedWindowCounter({ limit: 100 });
    for (let i = 0; i < 10; i += 1) counter.tryTake(MINUTE + 1000);

    expect(counter.ratePerMinute(MINUTE + 30_000)).toBe(20);
    // Within the first second the rate is over one second, not over a few milliseconds.
    expect(counter.ratePerMinute(MINUTE + 10)).toBe(600);
    expect(counter.ratePerMinute(MINUTE + 60_000)).toBe(0);
    expect(counter.count(MINUTE + 60_000)).toBe(0);
  });

  it("honours a window length other than a minute", () => {
    const counter = createFixedWindowCounter({ limit: 1, windowMs: 1000 });

    expect([counter.tryTake(MINUTE), counter.tryTake(MINUTE + 999), counter.tryTake(MINUTE + 1000)]).toEqual([
      true,
      false,
      true,
    ]);
  });
});
