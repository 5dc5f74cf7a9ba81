/**
 * `mkdir -p` that reports why it failed. Node's recursive mkdir answers ENOENT when a level
 * cannot be created for another reason (a read-only file system, EROFS, comes back as "no such
 * file or directory"), which sends an operator looking for the wrong problem. On failure the
 * levels are created one by one, without `recursive`, and the first refusal the OS gives is
 * thrown instead: EROFS, EACCES, ENOTDIR (a regular file in the way), ENOSPC... A regular file
 * where the directory itself should be (the OS answers EEXIST, which reads as if all were well) is
 * reported as ENOTDIR too. `mode` applies to each level created (private-files.ts creates the
 * private ones).
 */
import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/** Creates `path` and its missing parents; resolves with the first directory created, if any. */
export async function makeDirectory(path: string, mode?: number): Promise<string | undefined> {
  try {
    return await mkdir(path, { recursive: true, ...(mode === undefined ? {} : { mode }) });
  } catch (error) {
    throw (await refusalOf(resolve(path), mode)) ?? error;
  }
}

/** The OS's own error for the first level of `path` that cannot be created; undefined if none fails. */
async function refusalOf(path: string, mode: number | undefined): Promise<unknown> {
  const levels: string[] = [];
  for (let level = path; ; level = dirname(level)) {
    levels.unshift(level);
    if (dirname(level) === level) break;
  }
  for (const level of levels) {
    try {
      await mkdir(level, mode);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return error;
      if (!(await stat(level)).isDirectory()) return notADirectory(level);
    }
  }
  return undefined;
}

function notADirectory(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOTDIR: not a directory (a file is in the way), mkdir '${path}'`), {
    code: "ENOTDIR",
    syscall: "mkdir",
    path,
  });
}
