/**
 * The bundle `npm start` runs (dist/main.mjs and its chunks) holds only ASCII characters. Node
 * keeps a module's source for as long as the process lives, at one byte a character when every
 * character is ASCII and at two otherwise: five characters outside ASCII made the 1.3 MB bundle
 * cost about 1.2 MB more in every Steward process (in V8's heap on Node 20, beside it on Node 24).
 * esbuild escapes such characters in strings, but not in regular expressions or in the comments it
 * keeps, so the sources spell them as escapes there (`\u00b5` for the micro sign).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bundle } from "../../../bin/bundle.mjs";

const ROOT = join(import.meta.dirname, "..", "..", "..");

/** `file:line: text` for every line of `path` holding a character outside ASCII. */
function nonAsciiLines(path: string): string[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .flatMap((line, index) =>
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is every ASCII character
      /[^\u0000-\u007f]/.test(line)
        ? [`${relative(ROOT, path)}:${index + 1}: ${line.trim().slice(0, 120)}`]
        : [],
    );
}

describe("the bundle Steward runs", () => {
  it("holds only ASCII characters, so V8 keeps its source at one byte a character", () => {
    const main = fileURLToPath(bundle("local/cli/main.ts"));
    const chunks = join(dirname(main), "chunks");
    const files = [
      main,
      ...readdirSync(chunks)
        .filter((name) => name.endsWith(".mjs"))
        .map((name) => join(chunks, name)),
    ];
    expect(files.length).toBeGreaterThan(1);
    expect(files.flatMap(nonAsciiLines)).toEqual([]);
  }, 60_000);
});
