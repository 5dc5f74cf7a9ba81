/**
 * Symlink resolution for the path rules of core/files/path-guard.ts: the realpath of the longest
 * existing ancestor plus the not-yet-existing rest, so a target that does not exist yet is still
 * judged by where it would really land.
 */
import { realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

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
