/**
 * The archives `npm run package` writes to release/, for the tests that run what an operator
 * unpacks: where each one is, a skip helper (loud outside CI; under CI=true a failure, since CI
 * builds them before it runs these tests), and unpacking one into a new folder under the system's
 * temporary directory, away from the repository, so that no node_modules can help the executable.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { archiveName, type ReleasePlatform } from "../../bin/package.ts";
import { SERVICE_VERSION } from "../../core/version.ts";

const RELEASE = join(import.meta.dirname, "..", "..", "release");

export function releaseArchive(platform: ReleasePlatform): string {
  return join(RELEASE, archiveName(platform));
}

/** Why the tests of `platform`'s archive cannot run here, or undefined when they can. */
export function archiveMissing(platform: ReleasePlatform): string | undefined {
  const archive = releaseArchive(platform);
  if (!existsSync(archive)) return `release/${archiveName(platform)} not built (npm run package)`;
  if (platform === "win-x64" && !commandExists("unzip")) return "unzip not installed (apt-get install unzip)";
  return undefined;
}

/** Call at module level; true when the tests must be skipped (and `reasons` is not empty). */
export function skipWithout(what: string, reasons: ReadonlyArray<string | undefined>): boolean {
  const missing = reasons.filter((reason) => reason !== undefined);
  if (missing.length === 0) return false;
  if (process.env.CI === "true") throw new Error(`${what} cannot run in CI: ${missing.join("; ")}`);
  console.warn(`\n*** ${what} SKIPPED: ${missing.join("; ")} ***\n`);
  return true;
}

export function commandExists(command: string): boolean {
  try {
    execFileSync("which", [command], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export interface UnpackedRelease {
  /** The archive's top folder, as the operator sees it after unpacking. */
  folder: string;
  remove(): void;
}

/** Unpacks `platform`'s archive into a new temporary folder. */
export function unpackRelease(platform: ReleasePlatform): UnpackedRelease {
  const parent = mkdtempSync(join(tmpdir(), `steward-release-${platform}-`));
  const archive = releaseArchive(platform);
  if (archive.endsWith(".zip")) execFileSync("unzip", ["-q", archive, "-d", parent]);
  else execFileSync("tar", ["-xzf", archive, "-C", parent]);
  return {
    folder: join(parent, `steward-${SERVICE_VERSION}-${platform}`),
    remove: () => rmSync(parent, { recursive: true, force: true, maxRetries: 3 }),
  };
}
