/**
 * Makes the names created, renamed or deleted in a directory survive a power cut, where the
 * operating system lets a program ask for it. Every directory sync of the local stores goes
 * through here: the key-value store, the schedule store, the durable audit log's segments, its
 * cursor files and its manifest.
 *
 * On Linux (and every POSIX system) a rename or a new file is in the directory's own data, which
 * reaches the disk when the directory is opened and fsync'ed; until then a crash can bring the old
 * name back.
 *
 * On Windows there is nothing to ask, so nothing is done: a directory cannot be opened for
 * flushing (FlushFileBuffers needs a handle with write access, which a directory does not give,
 * and Node's fsync of a directory fails with EPERM), and NTFS journals its metadata, so after a
 * crash a rename is either done or not, never half done. A file's own data is still flushed before
 * anything is acknowledged (fdatasync of the file works there), and a replaced file's data before
 * the rename (replace-file.ts), so a rename that survives carries the new content. This is a rule
 * of the platform, applied here before anything is opened, not an EPERM caught and ignored: a
 * directory sync that fails on Linux is still an error.
 */
import { open } from "node:fs/promises";

/** Whether `platform` lets a program sync a directory (every platform but Windows). */
export function directoriesCanBeSynced(platform: NodeJS.Platform): boolean {
  return platform !== "win32";
}

export async function syncDirectory(
  path: string,
  platform: NodeJS.Platform = process.platform,
): Promise<void> {
  if (!directoriesCanBeSynced(platform)) return;
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
