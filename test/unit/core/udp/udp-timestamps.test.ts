import { describe, expect, it } from "vitest";
import { isIsoTimestamp, isLocalTimestamp, isoTimestampMs } from "../../../../core/udp/udp-timestamps.ts";

const INSTANT = Date.UTC(2021, 10, 9, 13, 37, 26, 28);

describe("isoTimestampMs", () => {
  it.each([
    ["compact with +hhmm (log4net %longIso8601date)", "20211109T153726.028+0200"],
    ["compact with +hh:mm", "20211109T153726.028+02:00"],
    ["compact with Z", "20211109T133726.028Z"],
    ["hyphenated with +hh:mm", "2021-11-09T15:37:26.028+02:00"],
    ["hyphenated with +hhmm", "2021-11-09T15:37:26.028+0200"],
    ["hyphenated with Z", "2021-11-09T13:37:26.028Z"],
    ["a negative offset", "2021-11-09T11:37:26.028-02:00"],
    ["a longer fraction", "2021-11-09T13:37:26.0281234Z"],
  ])("reads %s", (_form, text) => {
    expect(isoTimestampMs(text)).toBe(INSTANT);
  });

  it("reads a timestamp without a fraction and a short fraction", () => {
    expect(isoTimestampMs("20211109T133726Z")).toBe(INSTANT - 28);
    expect(isoTimestampMs("2021-11-09T13:37:26.5Z")).toBe(INSTANT - 28 + 500);
  });

  it.each([
    ["the log4net local form", "2021-11-09 15:37:26,028"],
    ["no zone", "2021-11-09T15:37:26.028"],
    ["month 13", "2021-13-09T15:37:26.028Z"],
    ["30 February", "2021-02-30T15:37:26.028Z"],
    ["hour 24", "2021-11-09T24:37:26.028Z"],
    ["zone hour 24", "2021-11-09T15:37:26.028+2400"],
    ["trailing text", "2021-11-09T15:37:26.028Zx"],
    ["an empty fraction", "2021-11-09T15:37:26.Z"],
    ["mixed compact date and hyphenated time", "20211109T15:37:26Z"],
    ["a year below 1000", "0099-11-09T15:37:26Z"],
    ["letters", "2021-1a-09T15:37:26Z"],
    ["empty", ""],
  ])("refuses %s", (_case, text) => {
    expect(isoTimestampMs(text)).toBeUndefined();
    expect(isIsoTimestamp(text)).toBe(false);
  });

  it("accepts 29 February in a leap year only", () => {
    expect(isIsoTimestamp("2024-02-29T00:00:00Z")).toBe(true);
    expect(isIsoTimestamp("2023-02-29T00:00:00Z")).toBe(false);
    expect(isIsoTimestamp("2000-02-29T00:00:00Z")).toBe(true);
    expect(isIsoTimestamp("1900-02-29T00:00:00Z")).toBe(false);
  });
});

describe("isLocalTimestamp", () => {
  it.each([
    ["the log4net local form", "2021-11-09 15:37:26,028"],
    ["the local form with a dot", "2021-11-09 15:37:26.028"],
    ["the local form without fraction", "2021-11-09 15:37:26"],
    ["hyphenated ISO", "2021-11-09T15:37:26.028+02:00"],
  ])("accepts %s", (_form, text) => {
    expect(isLocalTimestamp(text)).toBe(true);
  });

  it.each([
    ["compact ISO", "20211109T153726.028+0200"],
    ["a local form with a zone", "2021-11-09 15:37:26,028+0200"],
    ["a local form with a bad day", "2021-11-31 15:37:26,028"],
    ["text", "ts1"],
  ])("refuses %s", (_form, text) => {
    expect(isLocalTimestamp(text)).toBe(false);
  });
});
