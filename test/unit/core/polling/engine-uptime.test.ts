import { describe, expect, it } from "vitest";
import { engineUptime, formatUptime } from "../../../../core/polling/engine-uptime.ts";
import { STARTED, STARTED_MS } from "./polling-fixtures.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("formatUptime", () => {
  it.each([
    [0, "0 days, 0h 00m 00s"],
    [5 * SECOND + 999, "0 days, 0h 00m 05s"],
    [3 * DAY + 4 * HOUR + 5 * MINUTE + 9 * SECOND, "3 days, 4h 05m 09s"],
    [DAY - SECOND, "0 days, 23h 59m 59s"],
    [412 * DAY + 13 * HOUR + 45 * MINUTE + 12 * SECOND, "412 days, 13h 45m 12s"],
  ])("%d ms → %s", (ms, text) => {
    expect(formatUptime(ms)).toBe(text);
  });

  it("never gives a negative uptime", () => {
    expect(formatUptime(-5 * MINUTE)).toBe("0 days, 0h 00m 00s");
  });
});

describe("engineUptime", () => {
  it("counts from the instant of started, its offset applied", () => {
    const now = STARTED_MS + 2 * DAY + 3 * HOUR + 4 * MINUTE + 5 * SECOND;

    expect(engineUptime(STARTED, now)).toBe("2 days, 3h 04m 05s");
  });

  it.each([
    ["20211109T133726.028Z", "0 days, 1h 00m 00s"],
    ["20211109T083726.028-0500", "0 days, 1h 00m 00s"],
    ["2021-11-09T15:37:26.028+02:00", "0 days, 1h 00m 00s"],
    ["20211109T143726.028+0200", "0 days, 2h 00m 00s"],
    ["20211109T123726.028-0200", "0 days, 0h 00m 00s"],
    ["20211109T113726.028Z", "0 days, 3h 00m 00s"],
  ])("reads %s in its own zone", (started, uptime) => {
    expect(engineUptime(started, STARTED_MS + HOUR)).toBe(uptime);
  });

  it("gives zero when the engine's clock is ahead of this machine's", () => {
    expect(engineUptime(STARTED, STARTED_MS - 10 * SECOND)).toBe("0 days, 0h 00m 00s");
  });

  it.each([
    "",
    "garbage",
    "2021110",
    "20211109T153726",
    "20211309T153726.028+0200",
    "20211109T153726.028+02",
  ])("gives '' for %j", (started) => {
    expect(engineUptime(started, STARTED_MS)).toBe("");
  });
});
