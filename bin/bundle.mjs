// Bundles a TypeScript entry point and the project modules it imports (not node_modules) into
// ES modules under dist/, for plain `node` to run: no TypeScript loader stays resident in the
// process (tsx costs about 30 MB of RSS in every process that uses it). The entry becomes
// dist/<name>.mjs; what it imports only on demand (`await import(...)`, e.g. the AWS SDK of the
// cloud stores) goes into dist/chunks/, so a process loads it only when it uses it. Every file is
// written under a temporary name and renamed, chunks and source maps before the entry, so
// processes that build at the same moment never read half a file.
//
// The executables of `npm run package` get the same entry bundled once more by bundleExecutable:
// one CommonJS file with every npm package inside it, because the main script of a Node
// single-executable application is CommonJS and may load nothing but Node's built-in modules.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = join(root, "dist");
const executableOutdir = join(outdir, "executable");

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
  writeOutputs(
    build({
      ...sharedOptions(entry),
      outdir,
      chunkNames: "chunks/[name]-[hash]",
      outExtension: { ".js": ".mjs" },
      splitting: true,
      packages: "external",
      format: "esm",
      // The oldest Node line Steward supports (package.json engines): no syntax it lacks.
      target: "node22",
      // Stack traces map to the TypeScript files by path and line. The map is a file of its own
      // (<name>.mjs.map) rather than a base64 comment in the bundle, which every process kept as
      // part of the module's source and decoded at start: about 6 MB more peak memory (idle agent,
      // six interleaved runs). The sources themselves would add about 15 MB more.
      sourcemap: "linked",
      sourcesContent: false,
    }),
    out,
  );
  return pathToFileURL(out).href;
}

/**
 * Bundles `entry` and every npm package it imports to dist/executable/<name>.cjs, one CommonJS
 * file for a single-executable application's main script (bin/package/single-executable.ts), and
 * returns its path. What the entry imports on demand is inside it too, evaluated only when
 * imported. `import.meta.url` becomes this file's own URL (a CommonJS module has no import.meta);
 * inside an executable that is the executable's path. No source map: an executable has nowhere to
 * read it from, and its stack traces name the bundle's functions.
 */
export function bundleExecutable(entry) {
  const out = join(executableOutdir, `${basename(entry).replace(/\.ts$/, "")}.cjs`);
  writeOutputs(
    build({
      ...sharedOptions(entry),
      outdir: executableOutdir,
      outExtension: { ".js": ".cjs" },
      format: "cjs",
      // The oldest Node an executable embeds (the Windows one's).
      target: "node22",
      define: { "import.meta.url": "__stewardModuleUrl" },
      banner: { js: 'var __stewardModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
    }),
    out,
  );
  return out;
}

function sharedOptions(entry) {
  return {
    entryPoints: [join(root, entry)],
    entryNames: "[name]",
    write: false,
    bundle: true,
    platform: "node",
    logLevel: "warning",
  };
}

function build(options) {
  // Loaded here, not at the top: bin/steward.js imports this module only for bundleUrl.
  const esbuild = createRequire(import.meta.url)("esbuild");
  return esbuild.buildSync(options);
}

/** Writes what esbuild made, each file renamed into place, `last` after all the others. */
function writeOutputs(result, last) {
  const files = [...result.outputFiles].sort((a, b) => Number(a.path === last) - Number(b.path === last));
  for (const file of files) {
    mkdirSync(dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
}

// `npm run build`: node bin/bundle.mjs [entry]
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  bundle(process.argv[2] ?? "local/cli/main.ts");
}
