import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dir = fileURLToPath(new URL("../../../../core/config/", import.meta.url));

/**
 * Local modules that loading `file` loads: its static imports and re-exports, but not its
 * `import type` and `export type` declarations, which are erased and load nothing (core/ports.ts
 * names the types of several modules through their index.ts, which would otherwise bring in
 * every file of those modules).
 */
function reachable(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  for (const match of text.matchAll(/^(?:import|export)(\s+type)?\s[^;]*?from "(\.[^"]+\.ts)"/gm)) {
    if (match[1] === undefined) reachable(join(file, "..", match[2] ?? ""), seen);
  }
  return seen;
}

describe("core/config/index.ts", () => {
  it("reaches no node: module (edge handlers can import it)", () => {
    // Act
    const files = [...reachable(join(dir, "index.ts"))];
    const nodeImports = files.filter((f) => /from "node:/.test(readFileSync(f, "utf8")));

    // Assess
    expect(files.length).toBeGreaterThan(10);
    expect(nodeImports).toEqual([]);
  });

  it("reads no file: the file loader is a local adapter", () => {
    // Act
    const users = readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(".ts") && /from "node:fs/.test(readFileSync(join(dir, f), "utf8")));

    // Assess
    expect(users).toEqual([]);
  });
});
