/**
 * `npm run bench`: runs every test/bench/*.bench.ts (each exports `run(): Promise<unknown>` that
 * measures against a trivial Node server in the same run and prints its figures), one after the
 * other so they do not compete for the CPU. `npm run bench -- ingest` runs only matching files.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const filter = process.argv.slice(2);
const directory = import.meta.dirname;
const files = readdirSync(directory)
  .filter((name) => name.endsWith(".bench.ts"))
  .filter((name) => filter.length === 0 || filter.some((word) => name.includes(word)))
  .sort();

if (files.length === 0) {
  console.error(`no benchmark matches ${filter.join(" ") || "*.bench.ts"} in ${directory}`);
  process.exitCode = 1;
}
for (const name of files) {
  console.log(`\n### ${name}`);
  const module = (await import(pathToFileURL(join(directory, name)).href)) as { run(): Promise<unknown> };
  await module.run();
}
