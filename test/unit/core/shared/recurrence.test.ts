import { describe, expect, it } from "vitest";
import { InvalidScheduleError } from "../../../../core/shared/invalid-schedule-error.ts";
import { parseRecurrence, typicalIntervalMs } from "../../../../core/shared/recurrence.ts";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

describe("schedule expressions", () => {
  it("reads later.js text forms, evaluated in UTC", () => {
    const from = at("2026-01-01T00:00:01.500Z");
    expect(iso(parseRecurrence("every 30 seconds").next(from))).toBe("2026-01-01T00:00:30.000Z");
    expect(iso(parseRecurrence("every 1 hour").next(from))).toBe("2026-01-01T01:00:00.000Z");
    expect(iso(parseRecurrence("every 2 days").next(from))).toBe("2026-01-03T00:00:00.000Z");
    expect(iso(parseRecurrence("every 15 minutes").next(from))).toBe("2026-01-01T00:15:00.000Z");
    expect(iso(parseRecurrence("at 10:15 am").next(from))).toBe("2026-01-01T10:15:00.000Z");
    expect(parseRecurrence("every 1 hour").kind).toBe("text");
  });

  it("answers the occurrence strictly after the given instant, also exactly on one", () => {
    const hourly = parseRecurrence("every 1 hour");
    const first = hourly.next(at("2026-01-01T00:30:00Z"));
    expect(iso(first)).toBe("2026-01-01T01:00:00.000Z");
    expect(iso(hourly.next(first as number))).toBe("2026-01-01T02:00:00.000Z");
  });

  it("reads 5- and 6-field cron expressions in UTC", () => {
    const five = parseRecurrence("*/5 * * * *");
    const six = parseRecurrence("30 0 * * * *");
    expect(five.kind).toBe("cron");
    expect(iso(five.next(at("2026-01-01T00:01:00Z")))).toBe("2026-01-01T00:05:00.000Z");
    expect(iso(six.next(at("2026-01-01T00:01:00Z")))).toBe("2026-01-01T01:00:30.000Z");
    expect(iso(parseRecurrence("0 2 * * *").next(at("2026-01-01T03:00:00Z")))).toBe(
      "2026-01-02T02:00:00.000Z",
    );
  });

  it.each(["", "   ", "hourly", "every 1 hour foo", "* * *", "61 * * * *", "* * * * * * *"])(
    "refuses %j with InvalidScheduleError",
    (expression) => {
      expect(() => parseRecurrence(expression)).toThrow(InvalidScheduleError);
    },
  );

  it("measures the interval between upcoming occurrences", () => {
    expect(typicalIntervalMs(parseRecurrence("every 15 minutes"), at("2026-01-01T00:07:00Z"))).toBe(900_000);
    expect(typicalIntervalMs(parseRecurrence("0 * * * *"), at("2026-01-01T00:07:00Z"))).toBe(3_600_000);
  });
});
