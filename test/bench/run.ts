/**
 * `npm run bench`: runs every test/bench/*.bench.ts (each exports `run(): Promise<unknown>` that
 * measures against a trivial Node server in the same run and prints its figures), one after the
 * other so they do not compete for the CPU. `npm run bench -- ingest` runs only matching files
 * (`e2e` is end-to-end).
 * The benchmarks start Steward and their reference servers with the node that runs this file
 * (`process.execPath`), which `npm run bench` takes from the first `node` on PATH: put the pinned
 * Node 24 first (`PATH="$(npx tsx bin/pinned-node.ts):$PATH"`) to measure on it. The first line
 * printed names that node, so every figure says what it was measured on.
 */
import { readdirSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** Short names a reader may type for a benchmark. */
const ALIASES: Readonly<Record<string, string>> = { e2e: "end-to-end" };
const filter = process.argv.slice(2).map((word) => ALIASES[word] ?? word);
const directory = import.meta.dirname;
const files = readdirSync(directory)
  .filter((name) => name.endsWith(".bench.ts"))
  .filter((name) => filter.length === 0 || filter.some((word) => name.includes(word)))
  .sort();

if (files.length === 0) {
  console.error(`no benchmark matches ${filter.join(" ") || "*.bench.ts"} in ${directory}`);
  process.exitCode = 1;
}
console.log(
  `node ${process.versions.node} (${process.execPath}), load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
for (const name of files) {
  console.log(`\n### ${name}`);
  const module = (await import(pathToFileURL(join(directory, name)).href)) as { run(): Promise<unknown> };
  await module.run();
}
