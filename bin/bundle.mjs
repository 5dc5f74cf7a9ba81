// Bundles a TypeScript entry point and the project modules it imports (not node_modules) into
// one ES module under dist/, for plain `node` to run: no TypeScript loader stays resident in the
// process (tsx costs about 30 MB of RSS in every process that uses it). The file is written under
// a temporary name and renamed, so processes that build at the same moment never read half a file.
import { renameSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

function outputOf(entry) {
  return join(root, "dist", `${basename(entry).replace(/\.ts$/, "")}.mjs`);
}

/** Where `bundle(entry)` writes: dist/<name>.mjs, as a file URL. */
export function bundleUrl(entry) {
  return pathToFileURL(outputOf(entry)).href;
}

/** Bundles `entry` (relative to the project root) to dist/<name>.mjs and returns its file URL. */
export function bundle(entry) {
  const out = outputOf(entry);
  const temporary = `${out}.${process.pid}.tmp`;
  // Loaded here, not at the top: bin/steward.js imports this module only for bundleUrl.
  const esbuild = createRequire(import.meta.url)("esbuild");
  esbuild.buildSync({
    entryPoints: [join(root, entry)],
    outfile: temporary,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "inline",
    // Stack traces map to the TypeScript files by path and line; the sources themselves would
    // add about 15 MB to every process that runs with source maps on.
    sourcesContent: false,
    logLevel: "warning",
  });
  renameSync(temporary, out);
  return pathToFileURL(out).href;
}

// `npm run build`: node bin/bundle.mjs [entry]
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  bundle(process.argv[2] ?? "local/cli/main.ts");
}
