import { describe, expect, it } from "vitest";
import { createIsoTimestamps } from "../../../core/iso-timestamps.ts";
import type { Clock } from "../../../core/ports.ts";

function clockAt(ms: { now: number }): Clock {
  return { now: () => ms.now, setTimeout: () => 0, clearTimeout: () => {} };
}

describe("createIsoTimestamps", () => {
  it("formats the clock's time, and a new one as soon as the millisecond changes", () => {
    const time = { now: Date.UTC(2026, 10, 22, 6, 30, 0, 5) };
    const isoNow = createIsoTimestamps(clockAt(time));

    const first = isoNow();
    const again = isoNow();
    time.now += 1;
    const next = isoNow();
    time.now -= 1000;
    const earlier = isoNow();

    expect([first, again, next, earlier]).toEqual([
      "2026-11-22T06:30:00.005Z",
      "2026-11-22T06:30:00.005Z",
      "2026-11-22T06:30:00.006Z",
      "2026-11-22T06:29:59.006Z",
    ]);
  });
});
