import { describe, expect, it } from "vitest";
import { rateLimitConsistencyWarnings } from "../../../../core/audit/rate-limit-consistency.ts";

const on = (maxPerMinute: number) => ({ enable: true, maxPerMinute });

describe("rateLimitConsistencyWarnings", () => {
  it.each([
    [600, 300, "higher than"],
    [100, 300, "less than half"],
    [149, 300, "less than half"],
    [500, 100, "higher than"],
  ])("warns for queue %i vs HTTP %i (%s)", (queue, http, text) => {
    const warnings = rateLimitConsistencyWarnings(on(http), on(queue));

    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(text);
  });

  it.each([
    [300, 300],
    [200, 300],
    [150, 300],
  ])("does not warn for queue %i vs HTTP %i", (queue, http) => {
    expect(rateLimitConsistencyWarnings(on(http), on(queue))).toEqual([]);
  });

  it("does not warn when either limiter is off", () => {
    expect(rateLimitConsistencyWarnings({ enable: false, maxPerMinute: 300 }, on(600))).toEqual([]);
    expect(rateLimitConsistencyWarnings(on(300), { enable: false, maxPerMinute: 10 })).toEqual([]);
  });
});
