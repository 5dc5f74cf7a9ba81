/**
 * The durable audit queue (core/adapters/local/durable-queue/) holds its state in small named
 * pieces, each owning what it changes, so that a reader can follow one concern at a time: no
 * function there, a factory's closure counted whole, reaches 150 lines.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const FOLDER = join(import.meta.dirname, "..", "..", "..", "core", "adapters", "local", "durable-queue");
const MAX_LINES = 150;

/** Every function in `source` (declarations, methods, arrows, closures inside them) with its length in lines. */
function functionLengths(fileName: string, source: string): Array<{ name: string; lines: number }> {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true);
  const found: Array<{ name: string; lines: number }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name?.getText(file) ?? "<anonymous>";
      found.push({ name: `${fileName} ${name}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("durable queue function size", () => {
  it("measures a closure whole, with the functions inside it", () => {
    const body = Array.from({ length: 200 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const source = `export function outer() {\n${body}\n  return () => v0;\n}\n`;

    const lengths = functionLengths("example.ts", source);

    expect(lengths).toEqual([
      { name: "example.ts outer", lines: 203 },
      { name: "example.ts <anonymous>", lines: 1 },
    ]);
  });

  it(`keeps every function of the queue under ${MAX_LINES} lines`, () => {
    const files = readdirSync(FOLDER).filter((name) => name.endsWith(".ts"));
    const lengths = files.flatMap((name) => functionLengths(name, readFileSync(join(FOLDER, name), "utf8")));

    expect(files.length).toBeGreaterThan(10);
    expect(lengths.filter(({ lines }) => lines >= MAX_LINES)).toEqual([]);
  });
});
