/**
 * No function in the product (core/, functions/, local/, bin/, infra/, dashboards/src/ and the
 * SST config) or in the tests (test/: helpers, contract suites, benchmarks and the test files
 * themselves) reaches 150 lines, a closure counted whole with the functions inside it: code is
 * read one part at a time, and a function that long hides which part needs what. State that a
 * long factory would keep in its closure goes into small named pieces that each own what they
 * change. A `describe` callback is a function too: a long one is split into describes by
 * behaviour. Only data tables (one entry a line, where a split would only scatter the entries)
 * may be longer, and each is named below with its reason.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { functionLengths } from "../../helpers/function-lengths.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const FOLDERS = ["core", "functions", "local", "bin", "infra", "dashboards/src", "test"];
const FILES = ["sst.config.ts"];
const MAX_LINES = 150;

/** The functions allowed to reach MAX_LINES: data tables, each with why it stays whole. */
const ALLOWED: ReadonlyArray<{ file: string; name: string; why: string }> = [
  {
    file: "core/config/template-docs.ts",
    name: "settingDocs",
    why: "one line of documentation per setting, in the order of the configuration file; a function only so that its text stays out of bundles that never print a template",
  },
];

const SOURCE = /\.(ts|mts|js|mjs)$/;
const NOT_MEASURED = /\.d\.m?ts$/;

/** Every source file of the product and the tests, relative to the root, with `/`. */
function sourceFiles(): string[] {
  const inFolders = FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && SOURCE.test(entry.name) && !NOT_MEASURED.test(entry.name))
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join("/")),
  );
  return [...inFolders, ...FILES].sort();
}

const isAllowed = (file: string, name: string) =>
  ALLOWED.some((allowed) => allowed.file === file && allowed.name === name);

describe("function size", () => {
  it("measures declared functions, arrows and methods from first line to last", () => {
    const body = Array.from({ length: 5 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const source = [
      `function declared() {\n${body}\n}`,
      `const arrow = async () => {\n${body}\n};`,
      `const object = { method() {\n${body}\n} };`,
      "function short() { return 1; }",
    ].join("\n");

    const lengths = functionLengths("sample.ts", source);

    expect(
      lengths.filter((each) => each.lines > 6).map((each) => `${each.file}:${each.line} ${each.name}`),
    ).toEqual(["sample.ts:1 declared", "sample.ts:8 arrow", "sample.ts:15 method"]);
    expect(lengths.map((each) => each.lines)).toEqual([7, 7, 7, 1]);
  });

  it("measures a closure whole, with the functions inside it", () => {
    const body = Array.from({ length: 200 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const source = `export function outer() {\n${body}\n  return () => v0;\n}\n`;

    const lengths = functionLengths("example.ts", source);

    expect(lengths).toEqual([
      { file: "example.ts", line: 1, name: "outer", lines: 203 },
      { file: "example.ts", line: 202, name: "(anonymous)", lines: 1 },
    ]);
  });

  it("measures a describe callback and the tests inside it like any other function", () => {
    const body = Array.from({ length: 3 }, (_, i) => `    const v${i} = ${i};`).join("\n");
    const source = `describe("a group", () => {\n  it("does one thing", () => {\n${body}\n  });\n});\n`;

    const lengths = functionLengths("sample.test.ts", source);

    expect(lengths.map(({ line, name, lines }) => `${line} ${name} ${lines}`)).toEqual([
      "1 (anonymous) 7",
      "2 (anonymous) 5",
    ]);
  });

  it("measures JavaScript modules, class members and functions assigned to properties", () => {
    const body = Array.from({ length: 3 }, (_, i) => `    this.v${i} = ${i};`).join("\n");
    const source = [
      "export class Piece {",
      `  constructor() {\n${body}\n  }`,
      "  get size() { return 1; }",
      "  handler = () => 2;",
      "}",
      "export const table = { build: function () { return 3; } };",
    ].join("\n");

    const lengths = functionLengths("bin/piece.mjs", source);

    expect(lengths.map(({ line, name, lines }) => `${line} ${name} ${lines}`)).toEqual([
      "2 constructor 5",
      "7 size 1",
      "8 handler 1",
      "10 build 1",
    ]);
  });

  it("reads every source file of the product and the tests, test files and contract suites included", () => {
    const files = sourceFiles();

    for (const folder of FOLDERS) expect(files.some((file) => file.startsWith(`${folder}/`))).toBe(true);
    expect(
      files.filter((file) => file.startsWith("core/adapters/local/durable-queue/")).length,
    ).toBeGreaterThan(10);
    expect(files).toEqual(
      expect.arrayContaining([
        "bin/bundle.mjs",
        "bin/steward.js",
        "core/destinations/item-batcher.ts",
        "local/cli/main.ts",
        "sst.config.ts",
        "test/bench/soak.bench.ts",
        "test/contracts/broker-client.contract.ts",
        "test/helpers/function-lengths.ts",
        "test/unit/architecture/function-size.test.ts",
      ]),
    );
    expect(files.filter((file) => NOT_MEASURED.test(file))).toEqual([]);
  });

  it(`keeps every function under ${MAX_LINES} lines, but for the data tables allowed`, () => {
    const found = sourceFiles()
      .flatMap((file) => functionLengths(file, readFileSync(join(ROOT, file), "utf8")))
      .filter((each) => each.lines >= MAX_LINES && !isAllowed(each.file, each.name));

    expect(found.map((each) => `${each.file}:${each.line} ${each.name} (${each.lines} lines)`)).toEqual([]);
  });

  it("allows only tables that are still there and still that long", () => {
    for (const allowed of ALLOWED) {
      const lengths = functionLengths(allowed.file, readFileSync(join(ROOT, allowed.file), "utf8"));

      expect(
        lengths.some((each) => each.name === allowed.name && each.lines >= MAX_LINES),
        allowed.file,
      ).toBe(true);
    }
  });
});
