/**
 * The executables of `npm run package` beside `npm start`: each archive's size, the cold start
 * (spawn to the `steward ready` line) and the resident memory at idle (VmRSS 10 s after ready),
 * for Steward run as `npm start` runs it (node with Steward's options on bin/steward.js, which
 * bundles first), the Linux executable (natively) and steward.exe under Wine (the RSS is that of
 * the Wine process: Windows' own figure would differ). Each start is a fresh working directory
 * with the ingest API, the REST API and the status page on free ports, the durable queue and
 * Parquet on; the variants alternate round by round (`BENCH_RUNS`, default 5), and each run's
 * load average is printed, as other work on the machine slows every figure. `BENCH_NODE=/path/to/node`
 * runs `npm start`'s variant on that Node (e.g. the Linux executable's 24, from .package-cache/)
 * instead of this one. Needs the archives (npm run package) and, for steward.exe, Debian's wine.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NODE_FLAGS } from "../../bin/node-flags.mjs";
import { archiveName } from "../../bin/package.ts";
import { freePort } from "../helpers/free-port.ts";
import { archiveMissing, releaseArchive, unpackRelease } from "../helpers/release-archive.ts";
import { type StewardProcess, spawnCommand } from "../helpers/steward-process.ts";
import { spawnUnderWine, stopWine, wineMissing, winePrefix } from "../helpers/wine.ts";
import { median } from "./order-statistics.ts";
import { loadAverage1, memoryMb } from "./process-stats.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const NODE = process.env.BENCH_NODE || process.execPath;
const IDLE_MS = 10_000;
const BIN = join(import.meta.dirname, "..", "..", "bin", "steward.js");

/** `node --version` of `node`, without the v. */
function nodeVersion(node: string): string {
  return spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim().replace(/^v/, "");
}

interface Variant {
  name: string;
  start(directory: string): StewardProcess;
}

async function writeConfig(directory: string): Promise<void> {
  writeFileSync(
    join(directory, "steward.yaml"),
    `Service:
  auditEvents:
    port: ${await freePort()}
    destination:
      enable: true
      type: parquet
  restServer:
    port: ${await freePort()}
  configVisualisation:
    enable: true
    port: ${await freePort()}
`,
  );
}

const ARGS = ["start", "--config", "steward.yaml"];

function variants(): Variant[] {
  const found: Variant[] = [
    {
      name: `npm start (node ${nodeVersion(NODE)})`,
      start: (cwd) => spawnCommand(NODE, [...NODE_FLAGS, BIN, ...ARGS], { cwd }),
    },
  ];
  if (archiveMissing("linux-x64") === undefined) {
    const linux = unpackRelease("linux-x64");
    process.once("exit", () => linux.remove());
    found.push({
      name: "steward, Linux executable",
      start: (cwd) => spawnCommand(join(linux.folder, "steward"), ARGS, { cwd }),
    });
  } else console.log(`Linux executable left out: ${archiveMissing("linux-x64")}`);
  const windowsMissing = archiveMissing("win-x64") ?? wineMissing();
  if (windowsMissing === undefined) {
    const windows = unpackRelease("win-x64");
    const prefix = winePrefix();
    process.once("exit", () => {
      windows.remove();
      stopWine(prefix);
    });
    found.push({
      name: "steward.exe under Wine",
      start: (cwd) =>
        spawnUnderWine(prefix, join(windows.folder, "steward.exe"), ARGS, {
          cwd,
          outputFile: join(cwd, "output.txt"),
        }),
    });
  } else console.log(`steward.exe left out: ${windowsMissing}`);
  return found;
}

async function measure(variant: Variant): Promise<{ coldMs: number; idleRssMb: number }> {
  const directory = mkdtempSync(join(tmpdir(), "steward-bench-executable-"));
  try {
    await writeConfig(directory);
    const started = Date.now();
    const proc = variant.start(directory);
    await proc.waitFor(/steward ready/, 120_000);
    const coldMs = Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idleRssMb = memoryMb(proc.child.pid ?? 0).rss;
    proc.child.kill("SIGINT");
    await proc.exited(20_000);
    return { coldMs, idleRssMb };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  for (const platform of ["linux-x64", "win-x64"] as const) {
    if (archiveMissing(platform) === undefined) {
      console.log(
        `${archiveName(platform)}: ${(statSync(releaseArchive(platform)).size / 1e6).toFixed(1)} MB`,
      );
    }
  }
  const all = variants();
  const results = new Map<string, Array<{ coldMs: number; idleRssMb: number }>>();
  for (let round = 1; round <= RUNS; round += 1) {
    for (const variant of all) {
      const result = await measure(variant);
      results.set(variant.name, [...(results.get(variant.name) ?? []), result]);
      console.log(
        `round ${round} ${variant.name}: ready after ${result.coldMs} ms, ${result.idleRssMb.toFixed(0)} MB at idle (load ${loadAverage1()})`,
      );
    }
  }
  console.log(
    "\n| variant | cold start to `steward ready`: median (fastest–slowest) | RSS at idle: median (range) |",
  );
  console.log("|---|---:|---:|");
  for (const [name, runs] of results) {
    const cold = runs.map((r) => r.coldMs);
    const rss = runs.map((r) => r.idleRssMb);
    console.log(
      `| ${name} | ${median(cold)} ms (${Math.min(...cold)}–${Math.max(...cold)}) | ${median(rss).toFixed(0)} MB (${Math.min(...rss).toFixed(0)}–${Math.max(...rss).toFixed(0)}) |`,
    );
  }
}
