/**
 * The Layout of docs/development.md names every folder under core/ and every folder of the
 * repository's top level, so that a reader finds each there with what it holds; a folder added
 * without its line fails here, by name.
 */
import { execFileSync } from "node:child_process";
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

  it("names every folder of the repository's top level that git tracks", () => {
    const layout = layoutSection();
    const tracked = execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" }).split("\n");
    const folders = [
      ...new Set(tracked.filter((file) => file.includes("/")).map((file) => file.split("/")[0])),
    ].filter((folder) => !folder?.startsWith("."));
    expect(folders.filter((folder) => !new RegExp(`(^|\\s)${folder}/`, "m").test(layout))).toEqual([]);
  });
});
