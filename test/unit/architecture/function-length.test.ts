/**
 * No function in local/ (the local runtime's wiring, listeners and agent parts) is longer than
 * 150 lines: the start-up code is read top to bottom, one part at a time, and a function that
 * long hides which part needs what. Measured with the TypeScript parser, from a function's first
 * line to its last, whether declared, an arrow or a method.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const MAX_LINES = 150;

interface LongFunction {
  where: string;
  lines: number;
}

/** Every function in `source` longer than `maxLines`, as `file:line name`. */
function longFunctions(file: string, source: string, maxLines: number): LongFunction[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const lineOf = (position: number) => tree.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = lineOf(node.getStart(tree));
      const lines = lineOf(node.getEnd()) - first + 1;
      if (lines > maxLines) found.push({ where: `${file}:${first} ${nameOf(node)}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

function nameOf(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name !== undefined && ts.isIdentifier(named.name)) return named.name.text;
  const parent = node.parent;
  if (parent !== undefined && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) {
    return parent.name.text;
  }
  return "(anonymous)";
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("function length in local/", () => {
  it("measures declared functions, arrows and methods from first line to last", () => {
    const body = Array.from({ length: 5 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const source = [
      `function declared() {\n${body}\n}`,
      `const arrow = async () => {\n${body}\n};`,
      `const object = { method() {\n${body}\n} };`,
      "function short() { return 1; }",
    ].join("\n");

    const found = longFunctions("sample.ts", source, 6);

    expect(found.map((each) => each.where)).toEqual([
      "sample.ts:1 declared",
      "sample.ts:8 arrow",
      "sample.ts:15 method",
    ]);
    expect(found.map((each) => each.lines)).toEqual([7, 7, 7]);
  });

  it(`has no function over ${MAX_LINES} lines`, () => {
    const found = sourceFiles(join(ROOT, "local")).flatMap((file) =>
      longFunctions(relative(ROOT, file).split(sep).join("/"), readFileSync(file, "utf8"), MAX_LINES),
    );

    expect(found.map((each) => `${each.where} (${each.lines} lines)`)).toEqual([]);
  });
});
