/**
 * Path rules for file operations: inputs are checked for NUL bytes, over-long names and UNC
 * form, normalised (`\` read as a separator on every OS, `..` resolved) against the working
 * directory, and then their symlinks are resolved (core/adapters/local/real-path.ts, the file
 * system half) before they are compared with approved directories resolved the same way. So
 * neither `..` (with either separator) nor a symlink inside an approved directory that points
 * outside lets an operation escape.
 *
 * On Windows the rules are Windows' own (a pure rule: `PathRules` carries the platform's
 * `node:path`, so the tests check them with `path.win32` on any OS):
 * - drive paths (`C:\Qlik\exports`), UNC shares (`\\fileserver\qlik`) and `/` or `\` separators
 *   are taken, and two paths are compared without regard to case, as NTFS compares names: an
 *   approved `C:\Qlik\Exports` holds `c:\qlik\exports\a.qvd`, and `a.txt` and `A.TXT` are one file;
 * - a name Windows refuses or reads as something else is refused (windows-names.ts): an alternate
 *   data stream (`file.txt:stream`, `file.txt::$DATA`), a device name (`CON`, `NUL`, `COM1`,
 *   `nul.txt`), a name ending in a dot or a space;
 * - the device and long-path namespaces (`\\.\`, `\\?\`) are refused: they bypass the
 *   normalisation these rules rely on.
 *
 * The check and the operation are separate system calls. The operation therefore acts on the
 * resolved path and looks for links once more right before it acts
 * (core/adapters/local/local-file-operations.ts); approved directories should still not be
 * writable by untrusted local users, since a recursive copy or delete walks a tree they could
 * change while it runs.
 */
import path, { type PlatformPath } from "node:path";
import { InvalidPathError } from "./errors.ts";
import { windowsNameProblem } from "./windows-names.ts";

/** Linux PATH_MAX and NAME_MAX. */
export const MAX_PATH_BYTES = 4096;
export const MAX_NAME_BYTES = 255;

/** How one platform reads paths. */
export interface PathRules {
  /** The platform's `node:path` (`path.win32` or `path.posix`). */
  readonly path: PlatformPath;
  readonly windows: boolean;
  /** What a relative path is resolved against. */
  cwd(): string;
}

export function pathRulesFor(platform: NodeJS.Platform, cwd: () => string = () => process.cwd()): PathRules {
  const windows = platform === "win32";
  return { path: windows ? path.win32 : path.posix, windows, cwd };
}

/** The rules of the OS Steward runs on. */
export const hostPathRules: PathRules = pathRulesFor(process.platform);

/**
 * `\` as a separator on every OS, as Butler treats it (load scripts send Windows
 * paths): on Linux `a\b` is two directories and `..\..\x` climbs two levels, never one file name
 * with backslashes in it, which would let a traversal slip past the approval check.
 */
export function toSlashes(input: string): string {
  return input.replaceAll("\\", "/");
}

/** Checks the raw input and returns it normalised to an absolute path (symlinks untouched). */
export function normalisePath(rawInput: string, what: string, rules: PathRules = hostPathRules): string {
  const input = toSlashes(rawInput);
  if (input.length === 0) throw new InvalidPathError(`${what} must not be empty`);
  if (input.includes("\0")) throw new InvalidPathError(`${what} must not contain NUL bytes`);
  if (Buffer.byteLength(input) > MAX_PATH_BYTES) {
    throw new InvalidPathError(`${what} is longer than ${MAX_PATH_BYTES} bytes`);
  }
  if (!rules.windows && input.startsWith("//")) {
    throw new InvalidPathError(`${what}: UNC paths are not supported on this operating system`);
  }
  if (rules.windows && /^\/\/[.?]\//.test(input)) {
    throw new InvalidPathError(`${what}: device paths (\\\\.\\, \\\\?\\) are not supported`);
  }
  for (const name of input.split("/")) {
    if (Buffer.byteLength(name) > MAX_NAME_BYTES) {
      throw new InvalidPathError(`${what} has a name longer than ${MAX_NAME_BYTES} bytes`);
    }
  }
  const resolved = rules.path.resolve(rules.cwd(), input);
  if (rules.windows) refuseWindowsNames(resolved, what, rules.path);
  return resolved;
}

/** Every name below the root of a resolved Windows path must be one Windows takes as it is. */
function refuseWindowsNames(resolved: string, what: string, win32: PlatformPath): void {
  const { root } = win32.parse(resolved);
  for (const name of resolved.slice(root.length).split(win32.sep)) {
    if (name === "") continue;
    const problem = windowsNameProblem(name);
    if (problem !== undefined)
      throw new InvalidPathError(`${what}: the name ${JSON.stringify(name)} ${problem}`);
  }
}

/** True when `path` and `other` name the same place (on Windows, whatever the case). */
export function samePath(path: string, other: string, rules: PathRules = hostPathRules): boolean {
  return rules.path.relative(path, other) === "";
}

/** True when `path` is strictly below `directory` (both real, absolute). */
export function isStrictlyInside(path: string, directory: string, rules: PathRules = hostPathRules): boolean {
  const rel = rules.path.relative(directory, path);
  return rel !== "" && !rel.startsWith(`..${rules.path.sep}`) && rel !== ".." && !rules.path.isAbsolute(rel);
}

/** True when `path` is `directory` itself or below it. */
export function isInsideOrEqual(path: string, directory: string, rules: PathRules = hostPathRules): boolean {
  return samePath(path, directory, rules) || isStrictlyInside(path, directory, rules);
}
