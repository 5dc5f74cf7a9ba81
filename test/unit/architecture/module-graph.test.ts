/**
 * The core's modules depend on each other one way. Each folder directly under core/ (but
 * core/adapters/, which implements the ports) is a module; a module imports another, or the
 * files at core/'s root (ports.ts, the clock, the version), never one that imports it back,
 * directly or through others: so a module can be read, tested and moved with what it imports
 * and nothing else. The root files are not a module: ports.ts names types of several modules.
 *
 * A module others use through its index.ts (MODULES_BEHIND_INDEX) is used only through it: code
 * outside the module's folder (core/, local/, functions/, bin/) imports its index.ts and nothing
 * else of it, so its inside can be rearranged without touching its users. core/shared/ holds what
 * many modules use and none owns, and is imported file by file.
 */
import { readFileSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, ROOT, sourceFiles } from "../../helpers/source-imports.ts";

/**
 * The modules whose index.ts is their only door. The others are left out, each for a reason:
 * - shared: what many modules use and none owns; its files are imported one by one by design;
 * - base-conversion, files, kv, messaging, observability: one to three files, each of which is
 *   already the interface; an index.ts would only repeat them;
 * - qlik-cloud, task-events: their public faces are changing while they gain alert kinds; each
 *   joins the list with the index.ts that its new faces settle;
 * - audit, destinations, logging, monitoring, platform, polling, udp: still reached into file by
 *   file (15 to 47 imports each on 2026-12-06); each joins the list once its users import an
 *   index.ts of its own.
 */
const MODULES_BEHIND_INDEX = ["agent-destinations", "alerts", "config", "licences", "ratelimit", "schedules"];
const CODE = ["core", "local", "functions", "bin"];

/** Every relative import of the sources under `folders`: the importing file and the file imported, from the root. */
function relativeImports(folders: readonly string[]): { from: string; to: string }[] {
  return folders.flatMap((folder) =>
    sourceFiles(join(ROOT, folder)).flatMap((file) => {
      const from = relative(ROOT, file).split(sep).join("/");
      return importsOf(readFileSync(file, "utf8"))
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) => ({
          from,
          to: normalize(join(dirname(from), specifier))
            .split(sep)
            .join("/"),
        }));
    }),
  );
}

/** The module of a path under core/: its folder, or undefined for core/'s root files and the adapters. */
function moduleOf(path: string): string | undefined {
  const [top, folder, ...rest] = path.split("/");
  if (top !== "core" || folder === undefined || rest.length === 0 || folder === "adapters") return undefined;
  return folder;
}

/** Module → the modules it imports, with one import that shows each arrow. */
function moduleGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const { from, to } of relativeImports(["core"])) {
    const source = moduleOf(from);
    const target = moduleOf(to);
    if (source === undefined || target === undefined || source === target) continue;
    const arrows = graph.get(source) ?? new Map<string, string>();
    if (!arrows.has(target)) arrows.set(target, `${from} imports ${to}`);
    graph.set(source, arrows);
  }
  return graph;
}

/** The cycles of a graph, each as the imports that close it; none when it imports one way. */
function cycles(graph: Map<string, Map<string, string>>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const walk = (node: string, path: string[]) => {
    const at = path.indexOf(node);
    if (at >= 0) {
      const loop = [...path.slice(at), node];
      found.push(loop.slice(1).map((next, i) => graph.get(loop[i] as string)?.get(next) ?? next));
      return;
    }
    if (done.has(node)) return;
    for (const next of graph.get(node)?.keys() ?? []) walk(next, [...path, node]);
    done.add(node);
  };
  for (const node of graph.keys()) walk(node, []);
  return found;
}

describe("the core's modules", () => {
  it("finds a cycle where there is one, with the imports that make it", () => {
    const graph = new Map([
      ["a", new Map([["b", "a/x.ts imports b/y.ts"]])],
      ["b", new Map([["a", "b/y.ts imports a/z.ts"]])],
      ["c", new Map([["a", "c/w.ts imports a/x.ts"]])],
    ]);
    expect(cycles(graph)).toEqual([["a/x.ts imports b/y.ts", "b/y.ts imports a/z.ts"]]);
    expect(cycles(new Map([["c", new Map([["a", ""]])]]))).toEqual([]);
  });

  it("import each other one way: no module imports one that imports it back", () => {
    expect(cycles(moduleGraph())).toEqual([]);
  });

  it("are used through their index.ts alone from outside their folder, where they have one", () => {
    const reachingIn = relativeImports(CODE).filter(({ from, to }) => {
      const target = moduleOf(to);
      return (
        target !== undefined &&
        MODULES_BEHIND_INDEX.includes(target) &&
        moduleOf(from) !== target &&
        to !== `core/${target}/index.ts`
      );
    });
    expect(reachingIn.map(({ from, to }) => `${from} imports ${to}`)).toEqual([]);
  });
});
