/**
 * The length of every function in a source file, measured with the TypeScript parser from its
 * first line to its last: declared functions, arrows, function expressions, methods, accessors
 * and constructors alike. A closure is counted whole, with the functions inside it, which are
 * measured too: a factory that keeps its state in a closure is as long to read as its body.
 * JavaScript files (.js, .mjs) are parsed as JavaScript.
 */
import ts from "typescript";

export interface FunctionLength {
  /** The file's path as given. */
  file: string;
  /** Its first line, from 1. */
  line: number;
  /** Its name, that of the variable or property it is assigned to, or "(anonymous)". */
  name: string;
  lines: number;
}

/** Every function in `source` with a body, in the order they start. */
export function functionLengths(file: string, source: string): FunctionLength[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: FunctionLength[] = [];
  const lineOf = (position: number) => tree.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const line = lineOf(node.getStart(tree));
      found.push({ file, line, name: nameOf(node, tree), lines: lineOf(node.getEnd()) - line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

function nameOf(node: ts.Node, tree: ts.SourceFile): string {
  const named = node as { name?: ts.Node };
  if (named.name !== undefined) return named.name.getText(tree);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (
    parent !== undefined &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
  ) {
    return parent.name.getText(tree);
  }
  return "(anonymous)";
}
