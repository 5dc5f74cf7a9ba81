/**
 * One small file per destination under `<queue directory>/cursors/`, holding the position of the
 * first log record that destination has not yet written. Replaced atomically (temp file,
 * fdatasync, rename); the caller syncs the directory once for a round of renames. A missing or
 * unreadable file reads as undefined: the destination then starts at the oldest kept record,
 * which can only repeat events, never lose them.
 */
import { mkdir, open, readFile, rename } from "node:fs/promises";
import { join } from "node:path";

export function cursorDirectory(queueDirectory: string): string {
  return join(queueDirectory, "cursors");
}

const fileOf = (directory: string, destination: string) => join(directory, `${destination}.json`);

export async function readCursor(directory: string, destination: string): Promise<number | undefined> {
  let text: string;
  try {
    text = await readFile(fileOf(directory, destination), "utf8");
  } catch {
    return undefined;
  }
  try {
    const position = (JSON.parse(text) as { position?: unknown }).position;
    return typeof position === "number" && Number.isSafeInteger(position) && position >= 0
      ? position
      : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the cursor beside its file and renames it into place; sync the directory afterwards. */
export async function writeCursor(directory: string, destination: string, position: number): Promise<void> {
  await mkdir(directory, { recursive: true });
  const target = fileOf(directory, destination);
  const temp = `${target}.tmp`;
  const handle = await open(temp, "w");
  try {
    await handle.writeFile(JSON.stringify({ position }));
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
