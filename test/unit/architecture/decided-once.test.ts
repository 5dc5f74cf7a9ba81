/**
 * What the configuration decides is worked out in one place, and every part asks that place:
 * two copies of a rule drift apart (a listener running for a pipeline that writes nowhere, a
 * key file made for events that are never sent). Each rule below is read from the settings in
 * exactly the file named, and nowhere else in the sources (core/, functions/, local/).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..", "..");

interface Rule {
  what: string;
  /** How reading the setting for this rule looks in code. */
  pattern: RegExp;
  /** The files allowed to read it (repository-relative, `/`-separated). */
  allowed: (file: string) => boolean;
}

const RULES: readonly Rule[] = [
  {
    what: "whether any log-event source is on",
    pattern: /logEvents\.source\)/,
    allowed: (file) => file === "core/config/udp-pipelines.ts",
  },
  {
    what: "where a UDP pipeline writes (its switch and the destination's master switch)",
    pattern: /\.sendTo(Timeseriesdb|MQTT|ObsPlatform)\.enable\b/,
    // Validation of the settings themselves (which sections are checked, which accounts must
    // exist) reads them too; it decides what is valid, not where anything is written.
    allowed: (file) => file.startsWith("core/config/"),
  },
  {
    what: "whether audit events go to the cloud queue or the rate limit is shared",
    pattern: /(eventQueueUrl|rateLimitTable)\s*[!=]==/,
    allowed: (file) => file === "local/audit/audit-route.ts",
  },
];

function sourceFiles(): string[] {
  return ["core", "functions", "local"].flatMap((directory) =>
    readdirSync(join(ROOT, directory), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join("/")),
  );
}

/** `file:line` of every line that matches `pattern` in a file it is not allowed in. */
function strayReads(rule: Rule, files: readonly string[]): string[] {
  return files
    .filter((file) => !rule.allowed(file))
    .flatMap((file) =>
      readFileSync(join(ROOT, file), "utf8")
        .split("\n")
        .flatMap((line, index) => (rule.pattern.test(line) ? [`${file}:${index + 1}`] : [])),
    );
}

describe("decisions worked out once", () => {
  const files = sourceFiles();

  it.each(RULES.map((rule) => [rule.what, rule] as const))(
    "%s: read in its one place only",
    (_what, rule) => {
      expect(strayReads(rule, files)).toEqual([]);
    },
  );

  it("finds a stray read (the check itself works)", () => {
    const rule = RULES[0] as Rule;
    expect(
      rule.pattern.test("const on = Object.values(config.logEvents.source).some((s) => s.enable);"),
    ).toBe(true);
    expect(strayReads({ ...rule, allowed: () => false }, ["core/config/udp-pipelines.ts"])).toHaveLength(1);
  });
});
