/**
 * The handbook's links between pages: every relative link of README.md and of the pages under
 * docs/ must name a file that exists and, for a Markdown page, a heading it has. A page moved or
 * a heading renamed otherwise leaves readers at a dead end, which no reviewer sees in a diff.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { brokenLinks, relativeLinks } from "../../helpers/markdown-links.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");

function handbookPages(): string[] {
  const docs = readdirSync(join(ROOT, "docs"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
  return ["README.md", ...docs.sort()];
}

describe("links of README.md and docs/", () => {
  it("lead to files and headings that exist", () => {
    // Act
    const broken = brokenLinks(ROOT, handbookPages());

    // Assess
    expect(broken, `broken links:\n${broken.join("\n")}`).toEqual([]);
  });

  it("are found on every page (the check is not vacuous)", () => {
    // Act
    const counts = handbookPages().map(
      (page) => relativeLinks(readFileSync(join(ROOT, page), "utf8")).length,
    );

    // Assess
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThan(50);
  });
});
