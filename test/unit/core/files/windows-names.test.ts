/** The names Windows refuses or reads as something else, as the pure rule states them. */
import { describe, expect, it } from "vitest";
import { windowsNameProblem } from "../../../../core/files/windows-names.ts";

describe("windowsNameProblem", () => {
  it.each([
    "steward.2026-12-06.log",
    "20260308T164626.181Z_165c9558-0000-4000-8000-000000000000_none.json",
    "date=2026-03-08",
    "console.txt",
    "nul_file.txt",
    "COM10",
    "LPT",
    ".hidden",
    "a".repeat(255),
  ])("takes %s", (name) => {
    expect(windowsNameProblem(name)).toBeUndefined();
  });

  it.each([
    ["file.txt:stream", "alternate data stream"],
    ["file.txt::$DATA", "alternate data stream"],
    ["20260308T16:46:26.json", "alternate data stream"],
    ["a<b", "Windows refuses"],
    ["a>b", "Windows refuses"],
    ['a"b', "Windows refuses"],
    ["a|b", "Windows refuses"],
    ["a?b", "Windows refuses"],
    ["a*b", "Windows refuses"],
    ["a/b", "Windows refuses"],
    ["a\\b", "Windows refuses"],
    ["a\tb", "Windows refuses"],
    ["report.txt.", "dot or a space"],
    ["report ", "dot or a space"],
    ["CON", "device name"],
    ["con", "device name"],
    ["NUL", "device name"],
    ["nul.txt", "device name"],
    ["Nul .txt", "device name"],
    ["AUX.tar.gz", "device name"],
    ["PRN", "device name"],
    ["COM1", "device name"],
    ["com9.log", "device name"],
    ["COM¹", "device name"],
    ["LPT1", "device name"],
    ["lpt0.dat", "device name"],
    ["", "empty"],
    ["a".repeat(256), "longer than 255"],
  ])("refuses %j (%s)", (name, why) => {
    expect(windowsNameProblem(name)).toContain(why);
  });
});
