/**
 * Defaults the schema takes without parsing them again at every config parse (every Lambda cold
 * start takes them): they must be valid themselves, and any other value is still checked.
 */
import validRange from "semver/ranges/valid.js";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../../../core/config/index.ts";
import { parseRecurrence } from "../../../../core/shared/recurrence.ts";
import { problemsOf } from "./helpers.ts";

describe("defaults not parsed again at every parse", () => {
  it("the default heartbeat and uptime frequencies are schedules", () => {
    // Prepare
    const config = defaultConfig();

    // Act
    const schedules = [config.heartbeat.frequency, config.uptimeMonitor.frequency].map(parseRecurrence);

    // Assess
    expect(schedules.map((schedule) => schedule.next(Date.UTC(2026, 0, 1)))).toEqual([
      Date.UTC(2026, 0, 1, 1),
      Date.UTC(2026, 0, 1, 0, 15),
    ]);
  });

  it("the default compatibility ranges are semver ranges", () => {
    // Act
    const ranges = defaultConfig().auditEvents.compatibility.flatMap((pair) => [
      pair.serverRange,
      pair.clientRange,
    ]);

    // Assess
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges.filter((range) => validRange(range) === null)).toEqual([]);
  });

  it("still checks a frequency or a range that is not the default", () => {
    // Act
    const problems = problemsOf({
      uptimeMonitor: { enable: true, frequency: "every 15 minutes or so" },
      auditEvents: { compatibility: [{ serverRange: ">=15.0.0 <16.0.0", clientRange: ">=0.3.0 <" }] },
    });

    // Assess
    expect(problems).toEqual([
      "Service.auditEvents.compatibility[0].clientRange: must be a semver range such as >=15.0.0 <16.0.0",
      expect.stringMatching(/^Service\.uptimeMonitor\.frequency: .*not understood from "or so"/),
    ]);
  });
});
