/**
 * The rate limit of alerts shared by several processes (the cloud functions'): per destination
 * and key, the first alert of a window aligned to its length goes, whichever process asks; the
 * others in that window are left out, and counted by the admission as suppressed; a store that
 * fails lets the alert go, with a WARN; destinations keep their windows apart.
 */
import { describe, expect, it } from "vitest";
import { createMemoryRateLimitStore } from "../../../../core/adapters/local/memory-rate-limit-store.ts";
import { createAlertAdmission, createSharedAlertRateLimit } from "../../../../core/alerts/index.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

const START = Date.parse("2026-12-06T12:00:00Z");

function sharedLimits(destination = "webhook") {
  const clock = createManualClock(START);
  const store = createMemoryRateLimitStore();
  const logger = recordingLogger();
  const limitOf = (name = destination) =>
    createSharedAlertRateLimit({ store, destination: name, now: () => clock.now(), logger });
  return { clock, store, logger, limitOf };
}

describe("shared alert rate limit", () => {
  it("lets the first alert of a window through whichever process asks, and the next window's first again", async () => {
    const { clock, limitOf } = sharedLimits();
    const [one, two] = [limitOf(), limitOf()];

    expect(await one.take("cloud|app-1", 300)).toBe(true);
    expect(await two.take("cloud|app-1", 300)).toBe(false);
    expect(await two.take("cloud|app-2", 300)).toBe(true);
    clock.advance(300_000);
    expect(await two.take("cloud|app-1", 300)).toBe(true);
  });

  it("keeps each destination's windows apart, and takes no window of 0 s", async () => {
    const { limitOf } = sharedLimits();

    expect(await limitOf("webhook").take("cloud|app-1", 300)).toBe(true);
    expect(await limitOf("email").take("cloud|app-1", 300)).toBe(true);
    expect(await limitOf("webhook").take("cloud|app-1", 0)).toBe(true);
  });

  it("lets the alert go with a WARN when the store fails", async () => {
    const logger = recordingLogger();
    const limit = createSharedAlertRateLimit({
      store: { increment: async () => Promise.reject(new Error("table unavailable")) },
      destination: "webhook",
      now: () => START,
      logger,
    });

    expect(await limit.take("cloud|app-1", 300)).toBe(true);
    expect(logger.at("warn").map((entry) => entry.message)).toEqual([
      "The shared alert rate limit could not be read; the alert goes",
    ]);
  });

  it("is asked by the admission, which answers once the windows were taken", async () => {
    const { limitOf } = sharedLimits();
    const [one, two] = [
      createAlertAdmission({ rateLimit: limitOf() }),
      createAlertAdmission({ rateLimit: limitOf() }),
    ];

    expect(await one.admit(["cloud|app-1"], 300, "within the window")).toEqual({ admitted: ["cloud|app-1"] });
    expect(await two.admit(["cloud|app-1"], 300, "within the window")).toEqual({
      refused: { outcome: "suppressed", reason: "within the window" },
    });
  });
});
