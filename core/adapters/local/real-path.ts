/**
 * Symlink resolution for the path rules of core/files/path-guard.ts: the realpath of the longest
 * existing ancestor plus the not-yet-existing rest, so a target that does not exist yet is still
 * judged by where it would really land; the entry an operation acts on (its directories resolved,
 * the entry itself not followed); and the check, just before the operation, that no symbolic link
 * or junction has been put into that path since it was resolved.
 *
 * Node's `lstat` reports a Windows directory junction as a symbolic link (both are reparse points
 * that redirect a path), and standard users can create junctions without privilege, so the same
 * check covers both.
 */
import { lstat, realpath } from "node:fs/promises";
import { basename, dirname, join, parse, sep } from "node:path";
import { PathNotApprovedError } from "../../files/errors.ts";

/** The real path: symlinks of the longest existing ancestor resolved, the rest appended. */
export async function resolveReal(absolutePath: string): Promise<string> {
  const rest: string[] = [];
  let current = absolutePath;
  for (;;) {
    try {
      const real = await realpath(current);
      return rest.length === 0 ? real : join(real, ...rest.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
      const parent = dirname(current);
      if (parent === current) return absolutePath;
      rest.push(basename(current));
      current = parent;
    }
  }
}

/**
 * What an operation on `absolutePath` acts on: the entry of that name in its parent's real
 * directory. A link named by the path is the entry (deleted or moved as a link, not followed).
 */
export async function entryOf(absolutePath: string): Promise<string> {
  return join(await resolveReal(dirname(absolutePath)), basename(absolutePath));
}

/**
 * Refuses (PathNotApprovedError) when a directory of `entry`, or with `entryToo` the entry itself,
 * is now a symbolic link or junction. The path was resolved to hold none, so one found here was
 * put in after the check; acting through it could reach outside the approved directory. Levels
 * that do not exist (yet) are not looked at. Called right before the operation, this narrows the
 * window between check and use to two system calls.
 */
export async function refuseLinks(entry: string, what: string, entryToo = false): Promise<void> {
  const { root } = parse(entry);
  const names = entry
    .slice(root.length)
    .split(sep)
    .filter((name) => name !== "");
  if (!entryToo) names.pop();
  let level = root;
  for (const name of names) {
    level = join(level, name);
    let isLink: boolean;
    try {
      isLink = (await lstat(level)).isSymbolicLink();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return;
      throw error;
    }
    if (isLink) {
      throw new PathNotApprovedError(
        `${what} changed while it was checked: ${level} is now a symbolic link or junction; nothing was done`,
      );
    }
  }
}
