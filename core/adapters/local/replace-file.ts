/**
 * Replaces a small file so that a crash leaves either the old content or the new, never a torn
 * one: the text goes to `<file>.tmp`, is fdatasync'ed, and is renamed over the file. The rename
 * reaches the disk with the directory's next sync (syncDirectory), which the caller does once for
 * a round of replacements. Every file replaced this way holds user data (store snapshots,
 * schedules, queue cursors and manifest), so the new file is readable by Steward's user only
 * (private-files.ts), also when a `.tmp` left by a crash had another mode.
 */
import { open, rename } from "node:fs/promises";
import { PRIVATE_FILE_MODE } from "./private-files.ts";

export async function replaceFile(target: string, text: string): Promise<void> {
  const temp = `${target}.tmp`;
  const handle = await open(temp, "w", PRIVATE_FILE_MODE);
  try {
    await handle.chmod(PRIVATE_FILE_MODE);
    await handle.writeFile(text);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await rename(temp, target);
}

export async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
