/**
 * Replaces a small file so that a crash leaves either the old content or the new, never a torn
 * one: the text goes to `<file>.tmp`, is fdatasync'ed, and is renamed over the file. The rename
 * reaches the disk with the directory's next sync (syncDirectory), which the caller does once for
 * a round of replacements.
 */
import { open, rename } from "node:fs/promises";

export async function replaceFile(target: string, text: string): Promise<void> {
  const temp = `${target}.tmp`;
  const handle = await open(temp, "w");
  try {
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
