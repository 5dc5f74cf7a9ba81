import { describe, expect, it } from "vitest";
import { createAlertRateLimit } from "../../../../core/alerts/alert-rate-limit.ts";

describe("alert rate limit", () => {
  it("lets the first alert of a key through and leaves out others within the window, without extending it", () => {
    let now = 0;
    const limit = createAlertRateLimit(() => now);
    expect(limit.take("task-1", 60)).toBe(true);
    now = 59_000;
    expect(limit.take("task-1", 60)).toBe(false);
    expect(limit.take("task-2", 60)).toBe(true);
    now = 60_000;
    expect(limit.take("task-1", 60)).toBe(true);
    expect(limit.suppressed).toBe(1);
  });

  it("never limits with a window of 0", () => {
    const limit = createAlertRateLimit(() => 0);
    expect([limit.take("k", 0), limit.take("k", 0)]).toEqual([true, true]);
  });
});
