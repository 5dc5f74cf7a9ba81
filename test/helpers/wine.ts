/**
 * Windows programs under Wine (Debian's `wine`, 8.0) for the Windows smoke suite
 * (test/integration/windows/): the Wine prefix they run in, Windows paths on its drive C:, and
 * starting a program with its output in a file. What Wine needs, learnt on 2026-12-05:
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
