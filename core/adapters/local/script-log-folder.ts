/**
 * The ScriptLogFolder on the local disk: `<directory>/<YYYY-MM-DD>/<name>.log`. A file is written
 * as every store file is replaced (replace-file.ts: a `.tmp` beside it, fdatasync, rename), so a
 * crash or a full disk leaves the whole log or none, never a torn one; then its date folder is
 * synced (sync-directory.ts, nothing on Windows), so the new name survives a power cut. Script
 * logs hold what the load scripts print (connection names, paths, sometimes data), so the folders
 * Steward creates are 0700 and the files 0600 (private-files.ts), like the other stores.
 *
 * A write that fails removes its `.tmp`; one a crash left is listed with the logs, so the retention
 * removes it in its turn. Only folders named as a date and the `.log` files in them are listed, so a removal never touches
 * anything else an operator keeps in the directory. A removal that Windows refuses for a moment (a
 * reader holding the file) is tried again (busy-file-retry.ts).
 */
import { readdir, rmdir, stat, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { ScriptLogFileEntry, ScriptLogFolder } from "../../ports.ts";
import { retryWhileBusy } from "./busy-file-retry.ts";
import { makePrivateDirectory } from "./private-files.ts";
import { replaceFile } from "./replace-file.ts";
import { syncDirectory } from "./sync-directory.ts";

const DATE_FOLDER = /^\d{4}-\d{2}-\d{2}$/;
/** A kept log, or the `.tmp` of one a crash interrupted (counted and removed like the others). */
const LOG_FILE = /\.log(\.tmp)?$/;

export function createScriptLogFolder(directory: string): ScriptLogFolder {
  const root = resolve(directory);

  async function filesIn(date: string): Promise<ScriptLogFileEntry[]> {
    const folder = join(root, date);
    const entries: ScriptLogFileEntry[] = [];
    for (const name of await readdir(folder)) {
      if (!LOG_FILE.test(name)) continue;
      const info = await stat(join(folder, name)).catch(() => undefined);
      if (info?.isFile()) entries.push({ date, name, bytes: info.size, modifiedMs: info.mtimeMs });
    }
    return entries;
  }

  return {
    directory: root,
    async write(date, name, text) {
      const folder = join(root, date);
      await makePrivateDirectory(root);
      await makePrivateDirectory(folder);
      const file = join(folder, name);
      try {
        await replaceFile(file, text);
      } catch (error) {
        // A full disk leaves a torn `.tmp`: it goes at once, so the space it took is free again.
        await unlink(`${file}.tmp`).catch(() => undefined);
        throw error;
      }
      await syncDirectory(folder);
    },
    async list() {
      let names: string[];
      try {
        names = await readdir(root);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      const entries: ScriptLogFileEntry[] = [];
      for (const date of names.filter((name) => DATE_FOLDER.test(name)).sort()) {
        const info = await stat(join(root, date)).catch(() => undefined);
        if (info?.isDirectory()) entries.push(...(await filesIn(date)));
      }
      return entries;
    },
    async remove({ date, name }) {
      const folder = join(root, date);
      await retryWhileBusy(() => unlink(join(folder, name)));
      // The folder goes with its last file; one that still holds something stays.
      await rmdir(folder).catch(() => undefined);
    },
  };
}
