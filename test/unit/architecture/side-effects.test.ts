/**
 * package.json's `sideEffects` names the files that do something when they are imported (the
 * entry scripts, the AWS stack's resource definitions, the tests); every other source file only
 * declares. esbuild (the Lambda bundles of `sst deploy`, dist/ of the local process) takes it at
 * its word: a file none of whose exports is used is left out of a bundle, top-level code and all.
 * That is what lets a module be used through its index.ts without its index pulling every file of
 * the module, and the packages they import, into every function that uses one of them. So a
 * source file outside those globs may hold at its top level only imports, exports and
 * declarations; a statement that runs there (a call, a loop, a `try`) would be dropped from a
 * bundle whose code uses none of the file's exports. The check reads statements, not what a
 * declaration's initialiser calls: `const x = register()` is the reader's to see.
 */
import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT, sourceFiles } from "../../helpers/source-imports.ts";

/**
 * Files whose top-level statements only fill what the file itself declares, so that leaving the
 * file out leaves nothing undone.
 */
const OWN_STATE_ONLY: Record<string, string> = {
  "core/alerts/alert-template.ts": "registers a helper on the file's own Handlebars environment",
  "core/udp/apply-layout.ts": "fills the file's own table of hexadecimal digits",
};

const DECLARING = [
  ts.SyntaxKind.ImportDeclaration,
  ts.SyntaxKind.ImportEqualsDeclaration,
  ts.SyntaxKind.ExportDeclaration,
  ts.SyntaxKind.ExportAssignment,
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.ModuleDeclaration,
  ts.SyntaxKind.VariableStatement,
  ts.SyntaxKind.EmptyStatement,
];

/** The `sideEffects` globs of package.json (`./folder/**` or one file) as a test of a root-relative path. */
function declaredWithEffects(): (path: string) => boolean {
  const { sideEffects } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    sideEffects?: unknown;
  };
  if (!Array.isArray(sideEffects)) return () => true;
  const globs = sideEffects.map((glob) => String(glob).replace(/^\.\//, ""));
  return (path) =>
    globs.some((glob) => (glob.endsWith("/**") ? path.startsWith(glob.slice(0, -2)) : path === glob));
}

/** Each top-level statement that runs something, in a file outside the globs: where and what. */
function statementsThatRun(): string[] {
  const withEffects = declaredWithEffects();
  return ["core", "local", "functions"].flatMap((folder) =>
    sourceFiles(join(ROOT, folder)).flatMap((file) => {
      const path = relative(ROOT, file).split(sep).join("/");
      if (withEffects(path) || path in OWN_STATE_ONLY || path.endsWith(".d.ts")) return [];
      const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
      return source.statements
        .filter((statement) => !DECLARING.includes(statement.kind))
        .map((statement) => `${path}: ${statement.getText(source).split("\n")[0]}`);
    }),
  );
}

describe("package.json's sideEffects", () => {
  it("is a list of the files that do something when imported, not true by default", () => {
    const { sideEffects } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      sideEffects?: unknown;
    };
    expect(Array.isArray(sideEffects)).toBe(true);
    expect(declaredWithEffects()("local/cli/main.ts")).toBe(true);
    expect(declaredWithEffects()("infra/rest.ts")).toBe(true);
  });

  it("leaves out no source file whose top level runs something", () => {
    expect(statementsThatRun()).toEqual([]);
  });

  it("names only files that exist and still run something at their top level among the exceptions", () => {
    for (const path of Object.keys(OWN_STATE_ONLY)) {
      const source = ts.createSourceFile(
        path,
        readFileSync(join(ROOT, path), "utf8"),
        ts.ScriptTarget.Latest,
      );
      expect(
        source.statements.some((statement) => !DECLARING.includes(statement.kind)),
        path,
      ).toBe(true);
    }
  });
});
