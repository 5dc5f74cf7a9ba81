import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../../../core/config/index.ts";
import { createLocalIngest } from "../../../../local/audit/local-ingest.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

describe("createLocalIngest", () => {
  it("warns at start about a missing token and inconsistent limiters", () => {
    const logger = recordingLogger();
    const defaults = defaultConfig().auditEvents;
    const settings = {
      ...defaults,
      queue: { ...defaults.queue, rateLimit: { enable: true, maxPerMinute: 600 } },
    };

    createLocalIngest({ settings, handler: async () => {}, logger, clock: createManualClock() });

    const warnings = logger.at("warn").map((entry) => entry.message);
    expect(warnings).toHaveLength(2);
    expect(warnings.some((message) => message.includes("apiToken"))).toBe(true);
    expect(warnings.some((message) => message.includes("higher than"))).toBe(true);
  });

  it("stays quiet with a token and consistent limiters", () => {
    const logger = recordingLogger();

    createLocalIngest({
      settings: { ...defaultConfig().auditEvents, apiToken: "t" },
      handler: async () => {},
      logger,
      clock: createManualClock(),
    });

    expect(logger.at("warn")).toEqual([]);
  });
});
