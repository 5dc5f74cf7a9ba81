/**
 * Replaces a small file so that a crash leaves either the old content or the new, never a torn
 * one: the text goes to `<file>.tmp`, is fdatasync'ed, and is renamed over the file. The rename
 * reaches the disk with the directory's next sync (sync-directory.ts), which the caller does once
 * for a round of replacements. A rename that another program holding the file refuses for a moment
 * on Windows is tried again (busy-file-retry.ts); one still refused is thrown, the `.tmp` left for
 * the next replacement to overwrite, and the file keeps its old content. Every file replaced this
 * way holds user data (store snapshots, schedules, queue cursors and manifest), so the new file is
 * readable by Steward's user only (private-files.ts), also when a `.tmp` left by a crash had
 * another mode.
 */
import { open, rename } from "node:fs/promises";
import { type BusyFileRetry, retryWhileBusy } from "./busy-file-retry.ts";
import { PRIVATE_FILE_MODE } from "./private-files.ts";

export interface ReplaceFileOptions extends BusyFileRetry {
  /** The rename (node:fs's by default; a test gives one that fails first). */
  rename?: (from: string, to: string) => Promise<void>;
}

export async function replaceFile(
  target: string,
  text: string,
  options: ReplaceFileOptions = {},
): Promise<void> {
  const temp = `${target}.tmp`;
  const handle = await open(temp, "w", PRIVATE_FILE_MODE);
  try {
    await handle.chmod(PRIVATE_FILE_MODE);
    await handle.writeFile(text);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  const renameFile = options.rename ?? rename;
  await retryWhileBusy(() => renameFile(temp, target), options);
}
