/**
 * Bundles a Lambda handler the way `sst deploy` does for a Node function (SST v4's
 * pkg/runtime/node/build.go): esbuild, platform node, ESM, bundled and tree-shaken, minified,
 * keepNames, mainFields module/main, the runtime's ES target (es2024 for nodejs24.x) and SST's
 * banner that gives bundled CommonJS code `require`, `__filename` and `__dirname`. With
 * `splitting` (Steward's `nodejs.splitting`, infra/functions.ts) the entry `handler.mjs` holds what
 * it imports statically and every dynamically imported module goes to a chunk file of its own
 * that is loaded only when first imported; without it everything is in `handler.mjs`. `sdk`
 * "external" leaves `@aws-sdk/*` to the SDK the Lambda runtime provides; "bundled" is SST's
 * default and Steward's choice. Returns the package's size and what a cold start loads of it.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { deflateRawSync } from "node:zlib";
import { build, type Metafile } from "esbuild";

export type SdkPlacement = "bundled" | "external";

export interface LambdaBundleOptions {
  sdk: SdkPlacement;
  /** esbuild code splitting, as SST's `nodejs.splitting`. */
  splitting: boolean;
  target?: string;
}

export interface LambdaBundle {
  /** Absolute path of the entry file, `handler.mjs`: what Lambda imports. */
  file: string;
  /** Every file of the package (entry and chunks). */
  files: number;
  bytes: number;
  /** Deflated size of every file: about what the deployment zip carries. */
  zippedBytes: number;
  /** What a cold start loads: the entry and the chunks it imports statically, transitively. */
  startFiles: number;
  startBytes: number;
  /** The source files and package modules in those files (paths as esbuild's metafile names them). */
  startInputs: string[];
  /** Bytes loaded at a cold start per package (node_modules) or source folder, largest first. */
  contributors: Array<{ name: string; bytes: number }>;
}

const SST_BANNER = [
  `import { createRequire as topLevelCreateRequire } from 'module';`,
  `const require = topLevelCreateRequire(import.meta.url);`,
  `import { fileURLToPath as topLevelFileUrlToPath, URL as topLevelURL } from "url"`,
  `const __filename = topLevelFileUrlToPath(import.meta.url)`,
  `const __dirname = topLevelFileUrlToPath(new topLevelURL(".", import.meta.url))`,
].join("\n");

export async function bundleLambda(
  entry: string,
  outDir: string,
  { sdk, splitting, target = "es2024" }: LambdaBundleOptions,
): Promise<LambdaBundle> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, "handler.mjs");
  const result = await build({
    entryPoints: [entry],
    ...(splitting
      ? { splitting: true, outdir: outDir, outExtension: { ".js": ".mjs" }, entryNames: "handler" }
      : { outfile: file }),
    platform: "node",
    format: "esm",
    bundle: true,
    minify: true,
    keepNames: true,
    mainFields: ["module", "main"],
    target,
    banner: { js: SST_BANNER },
    external: ["sharp", "pg-native", ...(sdk === "external" ? ["@aws-sdk/*"] : [])],
    metafile: true,
    logLevel: "warning",
  });
  writeFileSync(path.join(outDir, "metafile.json"), JSON.stringify(result.metafile));
  const outputs = result.metafile.outputs;
  const all = Object.keys(outputs);
  const start = loadedAtStart(result.metafile, path.relative(process.cwd(), file));
  const sum = (names: string[]) => names.reduce((total, name) => total + outputs[name]!.bytes, 0);
  return {
    file,
    files: all.length,
    bytes: sum(all),
    zippedBytes: all.reduce(
      (total, name) => total + deflateRawSync(readFileSync(name), { level: 9 }).length,
      0,
    ),
    startFiles: start.length,
    startBytes: sum(start),
    startInputs: start.flatMap((name) => Object.keys(outputs[name]!.inputs)),
    contributors: contributors(result.metafile, start),
  };
}

/** The entry and every output it reaches through static imports (dynamic imports load later). */
function loadedAtStart(metafile: Metafile, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name) || metafile.outputs[name] === undefined) return;
    seen.add(name);
    for (const imported of metafile.outputs[name]!.imports) {
      if (imported.kind === "import-statement") visit(imported.path);
    }
  };
  visit(entry);
  if (seen.size === 0) throw new Error(`esbuild wrote no ${entry}`);
  return [...seen];
}

/** Output bytes of `names` grouped by npm package, or by the first two folders of a source file. */
function contributors(metafile: Metafile, names: string[]): Array<{ name: string; bytes: number }> {
  const totals = new Map<string, number>();
  for (const name of names) {
    for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[name]!.inputs)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
      const group = pkg ?? input.split("/").slice(0, 2).join("/");
      totals.set(group, (totals.get(group) ?? 0) + bytesInOutput);
    }
  }
  return [...totals].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
}
