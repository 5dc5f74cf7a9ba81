/**
 * One small file per destination under `<queue directory>/cursors/`, holding the position of the
 * first log record that destination has not yet written. Replaced atomically (replace-file.ts);
 * the caller syncs the directory once for a round of renames. A deletion that a program holding
 * the file refuses for a moment on Windows is tried again (busy-file-retry.ts). A missing or unreadable file reads
 * as undefined: what that means (a lost cursor, or a new destination) the log's manifest decides
 * (destination-selection.ts).
 */
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { retryWhileBusy } from "../busy-file-retry.ts";
import { PRIVATE_DIRECTORY_MODE } from "../private-files.ts";
import { replaceFile } from "../replace-file.ts";

const SUFFIX = ".json";

export function cursorDirectory(queueDirectory: string): string {
  return join(queueDirectory, "cursors");
}

const fileOf = (directory: string, destination: string) => join(directory, `${destination}${SUFFIX}`);

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

/** Every cursor file in `directory`, by destination, with its position (undefined: unreadable). */
export async function readCursorFiles(directory: string): Promise<Map<string, number | undefined>> {
  const cursors = new Map<string, number | undefined>();
  for (const name of await readdir(directory)) {
    if (!name.endsWith(SUFFIX)) continue; // a `.tmp` left by a crash is not a cursor
    const destination = name.slice(0, -SUFFIX.length);
    cursors.set(destination, await readCursor(directory, destination));
  }
  return cursors;
}

/** Writes the cursor beside its file and renames it into place; sync the directory afterwards. */
export async function writeCursor(directory: string, destination: string, position: number): Promise<void> {
  await mkdir(directory, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  await replaceFile(fileOf(directory, destination), JSON.stringify({ position }));
}

/** Deletes a destination's cursor file (and a temporary one left beside it); sync the directory afterwards. */
export async function removeCursor(directory: string, destination: string): Promise<void> {
  for (const file of [fileOf(directory, destination), `${fileOf(directory, destination)}.tmp`])
    await retryWhileBusy(() => rm(file, { force: true }));
}
