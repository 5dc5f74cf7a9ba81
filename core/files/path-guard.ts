/**
 * Path rules for file operations: inputs are checked for NUL bytes, over-long names and UNC
 * form, normalised (`\` read as a separator on every OS, `..` resolved) against the working
 * directory, and then their symlinks are resolved (core/adapters/local/real-path.ts, the file
 * system half) before they are compared with approved directories resolved the same way. So
 * neither `..` (with either separator) nor a symlink inside an approved directory that points
 * outside lets an operation escape.
 *
 * The check and the operation are separate system calls. The operation therefore acts on the
 * resolved path and looks for links once more right before it acts
 * (core/adapters/local/local-file-operations.ts); approved directories should still not be
 * writable by untrusted local users, since a recursive copy or delete walks a tree they could
 * change while it runs.
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import { InvalidPathError } from "./errors.ts";

/** Linux PATH_MAX and NAME_MAX. */
export const MAX_PATH_BYTES = 4096;
export const MAX_NAME_BYTES = 255;

/**
 * `\` as a separator on every OS, as Butler treats it (load scripts send Windows
 * paths): on Linux `a\b` is two directories and `..\..\x` climbs two levels, never one file name
 * with backslashes in it, which would let a traversal slip past the approval check.
 */
export function toSlashes(input: string): string {
  return input.replaceAll("\\", "/");
}

/** Checks the raw input and returns it normalised to an absolute path (symlinks untouched). */
export function normalisePath(rawInput: string, what: string): string {
  const input = toSlashes(rawInput);
  if (input.length === 0) throw new InvalidPathError(`${what} must not be empty`);
  if (input.includes("\0")) throw new InvalidPathError(`${what} must not contain NUL bytes`);
  if (Buffer.byteLength(input) > MAX_PATH_BYTES) {
    throw new InvalidPathError(`${what} is longer than ${MAX_PATH_BYTES} bytes`);
  }
  if (process.platform !== "win32" && input.startsWith("//")) {
    throw new InvalidPathError(`${what}: UNC paths are not supported on this operating system`);
  }
  for (const name of input.split("/")) {
    if (Buffer.byteLength(name) > MAX_NAME_BYTES) {
      throw new InvalidPathError(`${what} has a name longer than ${MAX_NAME_BYTES} bytes`);
    }
  }
  return resolve(input);
}

/** True when `path` is strictly below `directory` (both real, absolute). */
export function isStrictlyInside(path: string, directory: string): boolean {
  const rel = relative(directory, path);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

/** True when `path` is `directory` itself or below it. */
export function isInsideOrEqual(path: string, directory: string): boolean {
  return path === directory || isStrictlyInside(path, directory);
}
