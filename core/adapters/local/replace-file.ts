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

/**
 * Makes a directory's entries (a rename, a new or removed file) durable; on Windows it does
 * nothing. Windows cannot open a directory for flushing (opening it fails with EPERM), and NTFS
 * journals its metadata itself, so the rule is this `if`, not a caught error. Every directory
 * sync of the local stores and the durable queue comes through here.
 */
export async function syncDirectory(path: string): Promise<void> {
  if (process.platform === "win32") return;
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
