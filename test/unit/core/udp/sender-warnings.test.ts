import { describe, expect, it } from "vitest";
import { createSenderWarnings } from "../../../../core/udp/sender-warnings.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

describe("createSenderWarnings", () => {
  it("warns once per sender per minute, then reports how many were suppressed", () => {
    const logger = recordingLogger();
    const clock = createManualClock();
    const warnings = createSenderWarnings(logger, clock);

    warnings.warn("10.0.0.1", "bad", "a");
    warnings.warn("10.0.0.1", "bad", "b");
    warnings.warn("10.0.0.1", "bad", "c");
    clock.advance(59_999);
    warnings.warn("10.0.0.1", "bad", "d");
    clock.advance(1);
    warnings.warn("10.0.0.1", "bad", "e");

    expect(logger.at("warn").map((e) => [e.fields?.preview, e.fields?.suppressedSinceLastWarning])).toEqual([
      ["a", 0],
      ["e", 3],
    ]);
  });

  it("throttles each sender separately", () => {
    const logger = recordingLogger();
    const warnings = createSenderWarnings(logger, createManualClock());

    warnings.warn("10.0.0.1", "bad", "a");
    warnings.warn("10.0.0.2", "bad", "b");

    expect(logger.at("warn").map((e) => e.fields?.sender)).toEqual(["10.0.0.1", "10.0.0.2"]);
  });

  it("throttles each reason of one sender separately, so one reason never hides another", () => {
    const logger = recordingLogger();
    const clock = createManualClock();
    const warnings = createSenderWarnings(logger, clock);

    warnings.warn("10.0.0.1", "malformed", "a");
    warnings.warn("10.0.0.1", "unknown marker", "b");
    warnings.warn("10.0.0.1", "unknown marker", "c");
    warnings.warn("10.0.0.1", "malformed", "d");
    clock.advance(60_000);
    warnings.warn("10.0.0.1", "unknown marker", "e");

    expect(
      logger.at("warn").map((e) => [e.message, e.fields?.preview, e.fields?.suppressedSinceLastWarning]),
    ).toEqual([
      ["malformed", "a", 0],
      ["unknown marker", "b", 0],
      ["unknown marker", "e", 1],
    ]);
  });

  it("previews at most 100 characters without control characters, with the given fields", () => {
    const logger = recordingLogger();
    const warnings = createSenderWarnings(logger, createManualClock());

    warnings.warn("10.0.0.1", "bad", `\u0000${"x".repeat(150)}\n`, { source: "qseow-engine" });

    const [entry] = logger.at("warn");
    expect(entry?.fields?.preview).toBe("x".repeat(100));
    expect(entry?.fields?.source).toBe("qseow-engine");
  });
});

describe("createSenderWarnings memory", () => {
  it("keeps a suppressed count across a quiet minute", () => {
    const logger = recordingLogger();
    const clock = createManualClock();
    const warnings = createSenderWarnings(logger, clock);

    warnings.warn("10.0.0.1", "bad", "a");
    warnings.warn("10.0.0.1", "bad", "b");
    clock.advance(5 * 60_000);
    warnings.warn("10.0.0.1", "bad", "c");

    expect(logger.at("warn").map((e) => e.fields?.suppressedSinceLastWarning)).toEqual([0, 1]);
  });

  it("still warns about a known sender after a flood of distinct senders", () => {
    const logger = recordingLogger();
    const clock = createManualClock();
    const warnings = createSenderWarnings(logger, clock);

    for (let i = 0; i < 20_000; i++) warnings.warn(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, "bad", "x");
    clock.advance(60_000);
    warnings.warn("10.0.0.1", "bad", "y");

    expect(logger.at("warn").at(-1)?.fields?.preview).toBe("y");
  });
});
