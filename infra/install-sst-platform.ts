/**
 * Installs SST's platform into `.sst/platform` when it is missing or stale: the components'
 * sources, the Pulumi AWS provider and `config.d.ts`, the declarations of SST's globals that
 * `tsconfig.infra.json` checks infra/ against (`npm run typecheck`). SST generates them with
 * `sst install`; this runs it with three settings, so that it needs nothing but the npm registry:
 * - `SST_SKIP_DEPENDENCY_CHECK`: before any command, SST downloads the Pulumi CLI and Bun as
 *   binaries from their projects' release pages when they are not in ~/.config/sst/bin.
 *   Installing the platform needs neither: Pulumi is what deploys (`sst deploy` and `sst dev`
 *   still fetch it as before).
 * - `SST_NO_BUN`: the platform's packages are fetched with npm instead of Bun.
 * - `SST_TELEMETRY_DISABLED`: SST would report the command to its own telemetry host.
 * The stage is `typecheck` unless SST_STAGE names one: `sst install` requires one without a
 * terminal to ask on, and installs the same platform for every stage.
 *
 * Run directly (`tsx infra/install-sst-platform.ts`), it installs when needed and exits 1 with
 * SST's own words when it cannot.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** A hang (a registry that does not answer) ends here rather than stalling the type check. */
const INSTALL_TIMEOUT_MS = 5 * 60_000;

async function modified(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return undefined;
  }
}

async function text(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, "utf8")).trim();
  } catch {
    return undefined;
  }
}

/** Why `.sst/platform` must be (re)installed in `projectDir`, or undefined when it is current. */
export async function sstPlatformStaleness(projectDir: string): Promise<string | undefined> {
  const platform = join(projectDir, ".sst", "platform");
  const declared = await modified(join(platform, "config.d.ts"));
  if (declared === undefined) return "not installed yet";
  const installed = await text(join(platform, "version"));
  const manifest = JSON.parse(
    (await text(join(projectDir, "node_modules", "sst", "package.json"))) ?? "{}",
  ) as { version?: string };
  if (installed !== manifest.version) {
    return `installed by SST ${installed ?? "(unknown)"}, the project uses SST ${manifest.version}`;
  }
  // The providers sst.config.ts names decide which globals the declarations hold.
  const config = await modified(join(projectDir, "sst.config.ts"));
  if (config !== undefined && config > declared) return "sst.config.ts changed since";
  return undefined;
}

/** SST's errors from its log (`--print-logs`), else the end of what it printed. */
function failure(output: string): string {
  const lines = output.trim().split("\n");
  const errors = lines.filter((line) => line.includes("level=ERROR") || line.startsWith("✕"));
  return (errors.length > 0 ? errors : lines.slice(-20)).join("\n");
}

/** Runs `sst install` in `projectDir`; rejects with SST's output when it fails. */
export function installSstPlatform(projectDir: string): Promise<void> {
  const sst = join(projectDir, "node_modules", "sst", "bin", "sst.mjs");
  if (!existsSync(sst)) {
    return Promise.reject(new Error(`SST is not installed in ${projectDir} (${sst} is missing): run npm ci`));
  }
  const env = {
    ...process.env,
    SST_SKIP_DEPENDENCY_CHECK: "1",
    SST_NO_BUN: "1",
    SST_TELEMETRY_DISABLED: "1",
    SST_STAGE: process.env.SST_STAGE ?? "typecheck",
  };
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [sst, "install", "--print-logs"],
      { cwd: projectDir, env, timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) return done();
        const why = error.killed
          ? `no answer within ${INSTALL_TIMEOUT_MS / 1000} s`
          : failure(stdout + stderr);
        fail(new Error(`sst install failed in ${projectDir}: ${why}`));
      },
    );
  });
}

/** Installs `.sst/platform` in `projectDir` when it is missing or stale; says so on stderr. */
export async function ensureSstPlatform(projectDir: string): Promise<void> {
  const reason = await sstPlatformStaleness(projectDir);
  if (reason === undefined) return;
  const started = Date.now();
  process.stderr.write(`Installing SST's platform into .sst/platform (${reason}) ...\n`);
  await installSstPlatform(projectDir);
  process.stderr.write(`SST's platform installed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureSstPlatform(resolve(fileURLToPath(import.meta.url), "..", "..")).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
