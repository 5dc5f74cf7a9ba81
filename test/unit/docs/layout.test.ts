/**
 * The Layout of docs/development.md names every folder under core/, so that a reader finds each
 * module there with what it holds; a folder added without its line fails here, by name.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..", "..");

/** The text of the Layout section: from its heading to the next one. */
function layoutSection(): string {
  const page = readFileSync(join(ROOT, "docs", "development.md"), "utf8");
  const start = page.indexOf("\n## Layout\n");
  const end = page.indexOf("\n## ", start + 1);
  return page.slice(start, end < 0 ? undefined : end);
}

describe("the handbook's Layout", () => {
  it("names every folder under core/", () => {
    const layout = layoutSection();
    const folders = readdirSync(join(ROOT, "core"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${entry.name}/`);
    expect(folders.filter((folder) => !new RegExp(`(^|[\\s(])${folder}`).test(layout))).toEqual([]);
  });
});
