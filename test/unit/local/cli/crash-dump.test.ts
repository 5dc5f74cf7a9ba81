import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeCrashDump } from "../../../../local/cli/crash-dump.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";

const crashFile = (directory: string, json = true, text = true) => ({
  enable: true,
  crashFileDirectory: directory,
  crashFileCreateJson: json,
  crashFileCreateText: text,
});

describe("writeCrashDump", () => {
  it("writes a JSON and a text dump, private to the owner, with secrets masked", () => {
    const directory = join(scratchDirectory("steward-crash-"), "dumps");
    const error = new TypeError("cannot reach http://user:pa55word@db.local:8086 with token=abc123xyz");
    const files = writeCrashDump({
      error,
      source: "uncaughtException",
      crashFile: crashFile(directory),
      now: new Date("2026-11-22T03:04:05.678Z"),
    });
    expect(files).toHaveLength(2);
    const [jsonFile, textFile] = files as [string, string];
    expect(jsonFile).toMatch(/crash_dump_20261122_030405_678_\d+_\d+\.json$/);
    expect(textFile).toMatch(/\.txt$/);
    expect(statSync(jsonFile).mode & 0o777).toBe(0o600);
    expect(statSync(directory).mode & 0o777).toBe(0o700);

    const report = JSON.parse(readFileSync(jsonFile, "utf8"));
    expect(report).toMatchObject({
      version: "1.0",
      timestamp: "2026-11-22T03:04:05.678Z",
      app: { name: "steward", version: "15.0.0" },
      error: { type: "TypeError" },
      context: { exitCode: 1, source: "uncaughtException" },
    });
    const text = readFileSync(textFile, "utf8");
    expect(text).toContain("STEWARD CRASH REPORT");
    for (const content of [JSON.stringify(report), text]) {
      expect(content).not.toContain("pa55word");
      expect(content).not.toContain("abc123xyz");
    }
  });

  it("writes only the formats asked for, and nothing when disabled", () => {
    const directory = scratchDirectory("steward-crash-");
    expect(
      writeCrashDump({ error: "x", source: "startup", crashFile: crashFile(directory, false, true) }),
    ).toEqual([expect.stringMatching(/\.txt$/)]);
    expect(
      writeCrashDump({
        error: "x",
        source: "startup",
        crashFile: { ...crashFile(directory), enable: false },
      }),
    ).toEqual([]);
  });

  it("never throws when the directory cannot be created", () => {
    const blocker = join(scratchDirectory("steward-crash-"), "file");
    writeCrashDump({ error: "x", source: "startup", crashFile: crashFile(blocker, false, true) });
    expect(() =>
      writeCrashDump({ error: "x", source: "startup", crashFile: crashFile(join(blocker, "sub")) }),
    ).not.toThrow();
  });
});
