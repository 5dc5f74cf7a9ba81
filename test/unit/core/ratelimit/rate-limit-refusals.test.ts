import { describe, expect, it } from "vitest";
import { createRateLimitRefusals } from "../../../../core/ratelimit/rate-limit-refusals.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

const MESSAGE = "Client over the rate limit: its requests are refused with 429";

describe("createRateLimitRefusals", () => {
  it("warns at most once a minute per client IP, with the refusals since the previous line", () => {
    // Prepare
    const clock = createManualClock();
    const logger = recordingLogger();
    let counted = 0;
    const refusals = createRateLimitRefusals({ logger, clock, maxPerMinute: 5, count: () => counted++ });

    // Act
    for (let i = 0; i < 7; i++) refusals.refused("10.0.0.1");
    refusals.refused("10.0.0.2");
    clock.advance(59_999);
    refusals.refused("10.0.0.1");
    const withinTheMinute = logger.at("warn").length;
    clock.advance(1);
    refusals.refused("10.0.0.1");

    // Assess
    expect(withinTheMinute).toBe(2);
    expect(logger.at("warn")).toEqual([
      expect.objectContaining({
        message: MESSAGE,
        fields: { ip: "10.0.0.1", refusedRequests: 1, maxPerMinute: 5 },
      }),
      expect.objectContaining({
        message: MESSAGE,
        fields: { ip: "10.0.0.2", refusedRequests: 1, maxPerMinute: 5 },
      }),
      expect.objectContaining({
        message: MESSAGE,
        fields: { ip: "10.0.0.1", refusedRequests: 8, maxPerMinute: 5 },
      }),
    ]);
    expect(counted).toBe(10);
  });
});
