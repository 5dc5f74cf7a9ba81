/**
 * The handbook's shape: the README stays a front page that maps every page, each page says in its
 * first sentence whom it is for, and no page sends the reader to a document outside the
 * repository (a rule stated where it applies can be followed; a citation of a file nobody who
 * clones the repository has cannot). The patterns are those every file of the repository is
 * held to (test/unit/architecture/outside-citations.test.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { relativeLinks } from "../../helpers/markdown-links.ts";
import { citationsIn } from "../architecture/outside-citations.test.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const read = (page: string) => readFileSync(join(ROOT, page), "utf8");

/** docs/*.md, the handbook's pages (without the files under its subfolders). */
const docsPages = () =>
  readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`)
    .sort();

const allPages = () => {
  const nested = readdirSync(join(ROOT, "docs"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
  return ["README.md", ...nested.sort()];
};

describe("the handbook", () => {
  it("keeps the README a front page of at most 250 lines", () => {
    expect(read("README.md").split("\n").length).toBeLessThanOrEqual(250);
  });

  it("maps every page of docs/ from the README", () => {
    // Prepare
    const linked = new Set(relativeLinks(read("README.md")).map((link) => link.target.split("#")[0]));

    // Act
    const unmapped = docsPages().filter((page) => !linked.has(page));

    // Assess
    expect(unmapped, "pages the README's map does not link").toEqual([]);
  });

  it("starts every page by saying whom it is for", () => {
    // Act
    const without = docsPages().filter((page) => {
      const [title, ...rest] = read(page).split("\n\n");
      return !title?.startsWith("# ") || !rest[0]?.startsWith("For ");
    });

    // Assess
    expect(without, 'pages whose first paragraph after the title does not start with "For "').toEqual([]);
  });

  it("cites no document outside the repository", () => {
    // Act
    const citations = allPages().flatMap((page) => citationsIn(page, read(page)));

    // Assess
    expect(citations, `state the rule and its reason instead:\n${citations.join("\n")}`).toEqual([]);
  });
});
