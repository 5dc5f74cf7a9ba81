// Bundles a TypeScript entry point and the project modules it imports (not node_modules) into
// ES modules under dist/, for plain `node` to run: no TypeScript loader stays resident in the
// process (tsx costs about 30 MB of RSS in every process that uses it). The entry becomes
// dist/<name>.mjs; what it imports only on demand (`await import(...)`, e.g. the AWS SDK of the
// cloud stores) goes into dist/chunks/, so a process loads it only when it uses it. Every file is
// written under a temporary name and renamed, chunks and source maps before the entry, so
// processes that build at the same moment never read half a file.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = join(root, "dist");

function outputOf(entry) {
  return join(outdir, `${basename(entry).replace(/\.ts$/, "")}.mjs`);
}

/** Where `bundle(entry)` writes: dist/<name>.mjs, as a file URL. */
export function bundleUrl(entry) {
  return pathToFileURL(outputOf(entry)).href;
}

/** Bundles `entry` (relative to the project root) to dist/<name>.mjs and returns its file URL. */
export function bundle(entry) {
  const out = outputOf(entry);
  // Loaded here, not at the top: bin/steward.js imports this module only for bundleUrl.
  const esbuild = createRequire(import.meta.url)("esbuild");
  const result = esbuild.buildSync({
    entryPoints: [join(root, entry)],
    outdir,
    entryNames: "[name]",
    chunkNames: "chunks/[name]-[hash]",
    outExtension: { ".js": ".mjs" },
    splitting: true,
    write: false,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    // The oldest Node line Steward supports (package.json engines): no syntax it lacks.
    target: "node22",
    // Stack traces map to the TypeScript files by path and line. The map is a file of its own
    // (<name>.mjs.map) rather than a base64 comment in the bundle, which every process kept as
    // part of the module's source and decoded at start: about 6 MB more peak memory (idle agent,
    // six interleaved runs). The sources themselves would add about 15 MB more.
    sourcemap: "linked",
    sourcesContent: false,
    logLevel: "warning",
  });
  const files = [...result.outputFiles].sort((a, b) => Number(a.path === out) - Number(b.path === out));
  for (const file of files) {
    mkdirSync(dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  return pathToFileURL(out).href;
}

// `npm run build`: node bin/bundle.mjs [entry]
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  bundle(process.argv[2] ?? "local/cli/main.ts");
}
