/**
 * ObjectStore in a local directory. Keys map to files under the root; writes go to a temporary
 * file in the target directory and are renamed into place, so readers never see half a file. On
 * Windows a virus scanner often holds a file just written: the rename is tried again while it
 * refuses (busy-file-retry.ts), and a write still refused fails, its batch kept and written again.
 * Symlinks are resolved and must stay under the root.
 *
 * The root and the directories below it are created by the write that needs them, so an export
 * directory that is missing at start or deleted while running is created again (a WARN says so
 * when it had existed). When it cannot be created (a read-only file system, a regular file in
 * the way, no permission), the write fails with the OS's own reason (make-directory.ts) and one
 * ERROR names the directory; the caller (the destination's batcher) keeps the events and writes
 * them again later, and the next write tries to create the directory again.
 */
import { randomBytes } from "node:crypto";
import { readdir, readFile, realpath, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ObjectKeyError, validateObjectKey } from "../../destinations/index.ts";
import type { Logger, ObjectStore } from "../../ports.ts";
import { retryWhileBusy } from "./busy-file-retry.ts";
import { makeDirectory } from "./make-directory.ts";

export class DirectoryObjectStoreError extends Error {
  override name = "DirectoryObjectStoreError";
}

const TEMP_SUFFIX = ".steward-tmp";

export interface DirectoryObjectStoreOptions {
  /** Where a directory that had to be created again, or could not be, is reported. */
  logger?: Logger;
}

export function createDirectoryObjectStore(
  rootDirectory: string,
  options: DirectoryObjectStoreOptions = {},
): ObjectStore {
  const { logger } = options;
  let realRoot: Promise<string> | undefined;
  /** The reason directories could not be created, while they cannot (one ERROR per reason). */
  let failing: string | undefined;

  const root = (): Promise<string> => {
    if (realRoot === undefined) {
      const attempt = createDirectory(rootDirectory, undefined).then(() => realpath(rootDirectory));
      realRoot = attempt;
      // A failure is not kept: the next write tries again.
      attempt.catch(() => {
        if (realRoot === attempt) realRoot = undefined;
      });
    }
    return realRoot;
  };

  /** Creates `directory` (the root or below it), reporting a root that was deleted or cannot be made. */
  async function createDirectory(directory: string, base: string | undefined): Promise<void> {
    let created: string | undefined;
    try {
      created = await makeDirectory(directory);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (reason !== failing) {
        logger?.error("cannot create the export directory; its writes are kept and retried", {
          directory: rootDirectory,
          error: reason,
        });
      }
      failing = reason;
      throw new DirectoryObjectStoreError(`cannot create ${directory}: ${reason}`, { cause: error });
    }
    failing = undefined;
    // The root (or a directory above it) was created again: it had been deleted while running.
    if (base !== undefined && created !== undefined && isInside(created, base)) {
      logger?.warn("export directory was missing; created it again", { directory: rootDirectory });
    }
  }

  /**
   * The file for `key`, its directory resolved through symlinks and checked to be under the root.
   * Writing (`createParents`) needs no more: the temporary file is renamed onto the name, and a
   * rename replaces a symlink there instead of following it. Reading follows one, so it is
   * resolved and checked too.
   */
  async function confinedPath(key: string, createParents: boolean): Promise<string | undefined> {
    const segments = validateObjectKey(key);
    const base = await root();
    const target = path.join(base, ...segments);
    const parent = path.dirname(target);
    if (createParents) await createDirectory(parent, base);
    let realParent: string;
    try {
      realParent = await realpath(parent);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    if (!isInside(base, realParent))
      throw new ObjectKeyError(`object key ${JSON.stringify(key)} leaves the store`);
    const resolved = path.join(realParent, path.basename(target));
    if (createParents) return resolved;
    const realTarget = await realpath(resolved).catch((error: unknown) => {
      if (isNotFound(error)) return resolved;
      throw error;
    });
    if (!isInside(base, realTarget))
      throw new ObjectKeyError(`object key ${JSON.stringify(key)} leaves the store`);
    return realTarget;
  }

  return {
    async put(key, body) {
      const target = await confinedPath(key, true);
      if (target === undefined) throw new DirectoryObjectStoreError(`cannot create the directory of ${key}`);
      const temp = temporaryFileName(target);
      try {
        await writeFile(temp, body);
        await retryWhileBusy(() => rename(temp, target));
      } catch (error) {
        // A temporary file that cannot be deleted either is skipped by list() and by readers.
        await retryWhileBusy(() => rm(temp, { force: true })).catch(() => undefined);
        throw new DirectoryObjectStoreError(`writing ${key} failed`, { cause: error });
      }
    },

    async get(key) {
      const target = await confinedPath(key, false);
      if (target === undefined) return undefined;
      try {
        return new Uint8Array(await readFile(target));
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw new DirectoryObjectStoreError(`reading ${key} failed`, { cause: error });
      }
    },

    async list(prefix) {
      const base = await root();
      const keys: string[] = [];
      await walk(base, "", keys);
      return keys.filter((key) => key.startsWith(prefix)).sort();
    },
  };
}

/** Where a write of `target` goes first: beside it, under a name no other write picks, skipped by list(). */
export function temporaryFileName(target: string): string {
  return `${target}.${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`;
}

async function walk(directory: string, relative: string, keys: string[]): Promise<void> {
  const entries = await readdir(directory, { withFileTypes: true });
  for (const entry of entries) {
    const key = relative === "" ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) await walk(path.join(directory, entry.name), key, keys);
    else if (entry.isFile() && !entry.name.endsWith(TEMP_SUFFIX)) keys.push(key);
  }
}

/** True when `candidate` is the root or below it. */
function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return !relative.startsWith("..") && !path.isAbsolute(relative);
}

function isNotFound(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT";
}
