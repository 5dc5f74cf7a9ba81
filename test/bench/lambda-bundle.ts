/**
 * Bundles a Lambda handler the way `sst deploy` does for a Node function (SST v4's
 * pkg/runtime/node/build.go): esbuild, platform node, ESM, bundled and tree-shaken, minified,
 * keepNames, mainFields module/main, the runtime's ES target (es2024 for nodejs24.x) and SST's
 * banner that gives bundled CommonJS code `require`, `__filename` and `__dirname`. `sdk`
 * "external" leaves `@aws-sdk/*` to the SDK the Lambda runtime provides; "bundled" is SST's
 * default and Steward's choice (infra/functions.ts). Returns the bundle's size and what is in it.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { deflateRawSync } from "node:zlib";
import { build, type Metafile } from "esbuild";

export type SdkPlacement = "bundled" | "external";

export interface LambdaBundle {
  /** Absolute path of `bundle.mjs`. */
  file: string;
  bytes: number;
  /** Deflated size: about what the deployment zip carries. */
  zippedBytes: number;
  /** Bytes in the bundle per package (node_modules) or source folder, largest first. */
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
  sdk: SdkPlacement,
  target = "es2024",
): Promise<LambdaBundle> {
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, "bundle.mjs");
  const result = await build({
    entryPoints: [entry],
    outfile: file,
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
  const output = Object.values(result.metafile.outputs)[0]!;
  return {
    file,
    bytes: output.bytes,
    zippedBytes: deflateRawSync(readFileSync(file), { level: 9 }).length,
    contributors: contributors(result.metafile),
  };
}

/** Output bytes grouped by npm package, or by the first two folders of a source file. */
function contributors(metafile: Metafile): Array<{ name: string; bytes: number }> {
  const output = Object.values(metafile.outputs)[0]!;
  const totals = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
    const name = pkg ?? input.split("/").slice(0, 2).join("/");
    totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
  }
  return [...totals].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
}
