/**
 * The repository explains itself: no tracked file points at a document that is not in it (a
 * decision log, a description of the replaced products, numbered quirks, their sections). Nobody
 * who clones the repository can follow such a pointer; a rule stated where it applies, with its
 * reason, can be followed, and so can a link to a handbook page in docs/. The patterns live here
 * only: the handbook test applies the same ones to its pages through `citationsIn`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..", "..");

/**
 * What a citation of a document outside the repository looks like. The patterns and the samples
 * below are spelt so that this file's own text does not match a plain search for the citations
 * (`git grep` for the decision log's name, for "reference" before a section sign, or for "quirk" before a number finds nothing).
 */
const OUTSIDE_CITATIONS: readonly RegExp[] = [
  /§/,
  /C[O]NTRACT/,
  /[Qq]uirk/,
  /\bspec(?:ification)? documents?\b/i,
  /\bspec \d/,
  /[Rr]eference (?:audit|agent|rest|butler)/,
  /\breference (?:bugs?|quirks?|document)\b/i,
  /the reference\b/,
  /\bthe reference's\b/i,
  /reference.s\b/,
  /\brest-api\.md\b/,
  /toolchain-probe/,
  /style-anchors/,
];

/** This file holds the patterns themselves, so it is the one file not read. */
const THIS_FILE = relative(ROOT, import.meta.filename);

/**
 * Files that are not read: generated lists of other people's packages, and the service
 * wrapper's licence, shipped word for word (its "ACTION OF CONTRACT" is the MIT licence's).
 */
const NOT_READ = new Set(["package-lock.json", "bin/package/winsw-license.txt", THIS_FILE]);

/** `file:line: text` of every line of `text` that cites a document outside the repository. */
export function citationsIn(file: string, text: string): string[] {
  return text
    .split("\n")
    .flatMap((line, index) =>
      OUTSIDE_CITATIONS.some((pattern) => pattern.test(line)) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
    );
}

/** Git's own test for a binary file: a NUL byte in its first 8000 bytes. */
const isBinary = (content: Buffer) => content.subarray(0, 8000).includes(0);

/** Every file git tracks or would track (new ones too), but deleted ones and those not read. */
function repositoryFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  const files = listed.split("\0").filter((file) => file !== "" && !NOT_READ.has(file));
  return [...new Set(files)].filter((file) => existsSync(join(ROOT, file))).sort();
}

/** The citations in every text file of the repository. */
function repositoryCitations(): string[] {
  return repositoryFiles().flatMap((file) => {
    const content = readFileSync(join(ROOT, file));
    return isBinary(content) ? [] : citationsIn(file, content.toString("utf8"));
  });
}

// Registered only when vitest runs this file: the handbook test imports `citationsIn`, and would
// otherwise run the whole repository's check a second time.
if (expect.getState().testPath === import.meta.filename) {
  describe("citations of documents outside the repository", () => {
    it("finds each form a citation takes, and leaves a rule stated in place alone", () => {
      const cited = [
        `the ingest API (spec 1, ${"CON"}TRACT §3)`,
        ` * The agent's heartbeat (reference ${"§"}10.1): a GET`,
        `// the error points' own failures are never tracked (quirk${" "}14).`,
        "the names spec document 3 changed",
        "the reference's 25 columns",
        "The reference's tags",
        "the engine sample of reference agent §2.7",
        "written from reference audit-ingest.md",
        "as the reference does",
        "a reference bug",
        "commands the infrastructure defines (toolchain-probe Tier 1)",
        "see rest-api.md",
        "as style-anchors shows",
      ];
      const stated = [
        "the configuration reference page (docs/configuration-reference.md)",
        "replaces a whole-value reference to an environment variable",
        "the 25 columns of Butler SOS's audit row, as Butler SOS 15 writes it",
        "a failed write of error points is never itself recorded as an error point",
        "references to a data source",
        "the bare-Hono reference runs on plain serve()",
      ];

      expect(citationsIn("sample.ts", cited.join("\n"))).toHaveLength(cited.length);
      expect(citationsIn("sample.ts", stated.join("\n"))).toEqual([]);
      expect(citationsIn("a.ts", "one\n * reference\n * §8.1 says")).toEqual(["a.ts:3: * §8.1 says"]);
    });

    it("reads every text file of the repository but the package lock", () => {
      const files = repositoryFiles();

      expect(files).toEqual(
        expect.arrayContaining([
          "README.md",
          "Dockerfile",
          "docs/self-monitoring.md",
          "core/config/schema/config.ts",
          "local/cli/main.ts",
          "test/fixtures/butler-sos/complete.yaml",
          "test/unit/docs/handbook.test.ts",
        ]),
      );
      expect(files).not.toContain("package-lock.json");
      expect(files).not.toContain(THIS_FILE);
      expect(isBinary(readFileSync(join(ROOT, "docs/images/dashboard-influxdb.png")))).toBe(true);
      expect(isBinary(readFileSync(join(ROOT, "README.md")))).toBe(false);
    });

    it("cites no document outside the repository in any file", () => {
      const citations = repositoryCitations();

      expect(citations, `state the rule and its reason instead:\n${citations.join("\n")}`).toEqual([]);
    });
  });
}
