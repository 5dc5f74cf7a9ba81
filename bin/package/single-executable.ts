/**
 * Makes a Node single-executable application: the CommonJS bundle of bin/bundle.mjs and the files
 * Steward reads at run time (core/adapters/shipped-files.ts) go into a blob, which is injected
 * into a copy of an official node binary (postject, the tool Node's documentation names).
 *
 * - The blob is made by `blobNode`, which must be the same Node version as the binary it goes
 *   into; without a code cache or a snapshot, which would tie it to the machine that made it
 *   (the Windows blob is made on Linux).
 * - The executable starts with Steward's node options (bin/node-flags.mjs), as `npm start` does.
 * - A Windows binary's Authenticode signature is removed first (Debian's osslsigncode): injecting
 *   the blob breaks it, and a broken signature is worse than none. The executable is unsigned.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type ShippedFile, shippedFileKey } from "../../core/adapters/shipped-files.ts";
import { NODE_FLAGS } from "../node-flags.mjs";

/** Where postject finds the flag that tells node a blob is there. */
const SENTINEL_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
const RESOURCE_NAME = "NODE_SEA_BLOB";

export interface ExecutableBuild {
  /** The CommonJS bundle that runs as the main script. */
  main: string;
  /** node of the same version as `binary`, runnable here: makes the blob. */
  blobNode: string;
  /** The official node binary the blob goes into (a copy of it). */
  binary: string;
  /** Each file Steward reads at run time, with where it is on this machine. */
  assets: ReadonlyArray<{ file: ShippedFile; path: string }>;
  windows: boolean;
  /** The executable to write. */
  out: string;
}

export function buildExecutable(build: ExecutableBuild): void {
  const work = mkdtempSync(join(build.out, "..", ".executable-"));
  try {
    const blob = join(work, "steward.blob");
    const config = join(work, "sea-config.json");
    writeFileSync(
      config,
      JSON.stringify({
        main: build.main,
        output: blob,
        disableExperimentalSEAWarning: true,
        useSnapshot: false,
        useCodeCache: false,
        execArgv: NODE_FLAGS,
        assets: Object.fromEntries(build.assets.map(({ file, path }) => [shippedFileKey(file), path])),
      }),
    );
    execFileSync(build.blobNode, ["--experimental-sea-config", config], { stdio: "ignore" });
    if (build.windows) removeSignature(build.binary, build.out);
    else copyFileSync(build.binary, build.out);
    chmodSync(build.out, 0o755);
    inject(build.out, blob);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Runs postject's command line (in a process of its own: it holds the whole binary in memory
 * several times over). What it prints goes only into the error when it fails: it warns about
 * section names of Node's ELF binary on every successful run.
 */
function inject(executable: string, blob: string): void {
  const postject = createRequire(import.meta.url).resolve("postject/dist/cli.js");
  const args = [postject, executable, RESOURCE_NAME, blob, "--sentinel-fuse", SENTINEL_FUSE];
  const result = spawnSync(process.execPath, args, { encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(
      `postject could not inject the blob into ${executable}:\n${result.stdout}${result.stderr}`,
    );
  }
}

function removeSignature(binary: string, out: string): void {
  try {
    execFileSync("osslsigncode", ["remove-signature", "-in", binary, "-out", out], { stdio: "ignore" });
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    throw new Error(
      missing
        ? "osslsigncode is needed to remove node.exe's signature before the blob goes in (apt-get install osslsigncode)"
        : `osslsigncode could not remove ${binary}'s signature: ${String(error)}`,
    );
  }
}
