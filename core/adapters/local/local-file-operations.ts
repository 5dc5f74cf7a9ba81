/**
 * File operations of the REST API on the local file system (local runtime only): copy, move,
 * delete, create a directory anywhere, create a directory under the table-data directory.
 * Every path is checked by core/files/path-guard.ts; only operations whose real paths fall inside
 * `fileOperations` approved directories run. Copy and move handle directories recursively and
 * create missing parents.
 *
 * An operation acts on what was approved, not on the path as given: on the entry in its parent's
 * real directory (real-path.ts), so a link above it that is retargeted after the check changes
 * nothing. Right before the operation every level of that path is looked at again, and one that
 * has become a symbolic link or a Windows junction refuses the operation (403), since acting
 * through it would reach outside the approved directory. What remains is the short moment between
 * that look and the operation, and a recursive delete or copy walking a tree whose subdirectories
 * an untrusted user can replace: approved directories should be writable by Steward's service
 * account and trusted accounts only (docs/management-api.md).
 *
 * `createdir` creates a directory anywhere the service account may (the documented contract of
 * POST /v4/createdir, as in Butler); it is off by default.
 *
 * On Windows a move or delete that a program holding the file (a virus scanner, the indexer)
 * refuses for a moment is tried again (busy-file-retry.ts), and two paths that differ only in case
 * are the same file (path-guard.ts).
 */
import { cp, lstat, mkdir, rename, rm } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import {
  FileOperationError,
  FilePermissionError,
  InvalidPathError,
  PathNotApprovedError,
  SourceNotFoundError,
  TargetExistsError,
} from "../../files/errors.ts";
import { isInsideOrEqual, isStrictlyInside, normalisePath, samePath } from "../../files/path-guard.ts";
import type { ApprovedDirectoryPair, FileOperations } from "../../ports.ts";
import { FeatureDisabledError } from "../../upstream-error.ts";
import { retryWhileBusy } from "./busy-file-retry.ts";
import { entryOf, refuseLinks, resolveReal } from "./real-path.ts";

export interface FileOperationsOptions {
  copyApprovedDirectories: readonly ApprovedDirectoryPair[];
  moveApprovedDirectories: readonly ApprovedDirectoryPair[];
  deleteApprovedDirectories: readonly string[];
  /** The designated table-data directory; "" = not configured. */
  tableDataDirectory: string;
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** Maps an fs error to the typed error the edge understands. */
function mapFsError(error: unknown, action: string): Error {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case "EACCES":
    case "EPERM":
    case "EROFS":
      return new FilePermissionError(`${action}: permission denied`, { cause: error });
    case "ENOTDIR":
    case "EISDIR":
    case "ENAMETOOLONG":
    case "ERR_FS_CP_EINVAL":
    case "ERR_FS_CP_DIR_TO_NON_DIR":
    case "ERR_FS_CP_NON_DIR_TO_DIR":
    case "ERR_FS_EISDIR":
      return new InvalidPathError(`${action}: ${(error as Error).message}`);
    case "EEXIST":
    case "ERR_FS_CP_EEXIST":
      return new TargetExistsError(`${action}: target exists`);
    default:
      return new FileOperationError(`${action} failed`, { cause: error });
  }
}

async function guarded<T>(action: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (
      error instanceof InvalidPathError ||
      error instanceof PathNotApprovedError ||
      error instanceof SourceNotFoundError ||
      error instanceof TargetExistsError ||
      error instanceof FeatureDisabledError
    ) {
      throw error;
    }
    throw mapFsError(error, action);
  }
}

const realDirectory = (path: string) => resolveReal(normalisePath(path, "Approved directory"));

/** A path as given, and the entry an operation on it acts on. */
interface Approved {
  readonly entry: string;
  /** Where the path really leads (a link named by the path followed). */
  readonly real: string;
}

async function approvable(path: string): Promise<Approved> {
  return { entry: await entryOf(path), real: await resolveReal(path) };
}

/** Both what the path names and where it leads are strictly inside the directory. */
const holds = (directory: string, path: Approved) =>
  isStrictlyInside(path.entry, directory) && isStrictlyInside(path.real, directory);

export function createFileOperations(options: FileOperationsOptions): FileOperations {
  /** The entries of from/to, or PathNotApprovedError when no approved pair holds both. */
  async function approvePair(
    pairs: readonly ApprovedDirectoryPair[],
    fromFile: string,
    toFile: string,
    operation: string,
  ): Promise<{ from: string; to: string }> {
    const [from, to] = [await approvable(fromFile), await approvable(toFile)];
    for (const pair of pairs) {
      const [fromDirectory, toDirectory] = await Promise.all([
        realDirectory(pair.fromDirectory),
        realDirectory(pair.toDirectory),
      ]);
      if (holds(fromDirectory, from) && holds(toDirectory, to)) return { from: from.entry, to: to.entry };
    }
    throw new PathNotApprovedError(`No approved fromDir/toDir for file ${operation}`);
  }

  /** Checks source and target, creates the target's parents, then looks for links once more. */
  async function prepareTarget(from: string, to: string, overwrite: boolean): Promise<void> {
    if (!(await exists(from))) throw new SourceNotFoundError("fromFile does not exist");
    // On Windows `a.txt` and `A.TXT` are one file: a move with overwrite would delete it first.
    if (samePath(from, to)) throw new InvalidPathError("fromFile and toFile are the same path");
    if (await exists(to)) {
      if (!overwrite) throw new TargetExistsError("toFile exists and overwrite is false");
    }
    await refuseLinks(to, "toFile");
    await mkdir(dirname(to), { recursive: true });
    await refuseLinks(from, "fromFile");
    await refuseLinks(to, "toFile", true);
  }

  return {
    copy: (request) =>
      guarded("Copying file", async () => {
        const fromFile = normalisePath(request.fromFile, "fromFile");
        const toFile = normalisePath(request.toFile, "toFile");
        const { from, to } = await approvePair(options.copyApprovedDirectories, fromFile, toFile, "copy");
        await prepareTarget(from, to, request.overwrite);
        await cp(from, to, {
          recursive: true,
          force: request.overwrite,
          errorOnExist: !request.overwrite,
          preserveTimestamps: request.preserveTimestamp,
        });
        return { ...request, fromFile, toFile };
      }),

    move: (request) =>
      guarded("Moving file", async () => {
        const fromFile = normalisePath(request.fromFile, "fromFile");
        const toFile = normalisePath(request.toFile, "toFile");
        const { from, to } = await approvePair(options.moveApprovedDirectories, fromFile, toFile, "move");
        await prepareTarget(from, to, request.overwrite);
        if (isStrictlyInside(to, from)) throw new InvalidPathError("toFile is inside fromFile");
        if (request.overwrite && (await exists(to)))
          await retryWhileBusy(() => rm(to, { recursive: true, force: true }));
        try {
          await retryWhileBusy(() => rename(from, to));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
          // Different file systems: copy then remove, keeping timestamps as a move would.
          await cp(from, to, {
            recursive: true,
            preserveTimestamps: true,
            errorOnExist: true,
            force: false,
          });
          await rm(from, { recursive: true, force: true });
        }
        return { ...request, fromFile, toFile };
      }),

    delete: (path) =>
      guarded("Deleting file", async () => {
        const target = await approvable(normalisePath(path, "deleteFile"));
        let approved = false;
        for (const directory of options.deleteApprovedDirectories) {
          if (holds(await realDirectory(directory), target)) approved = true;
        }
        if (!approved) throw new PathNotApprovedError("No approved directory for file delete");
        if (!(await exists(target.entry)))
          throw new SourceNotFoundError("Delete failed, file does not exist");
        await refuseLinks(target.entry, "deleteFile");
        await retryWhileBusy(() => rm(target.entry, { recursive: true, force: false }));
      }),

    createDir: (directory) =>
      guarded("Creating directory", async () => {
        await mkdir(normalisePath(directory, "directory"), { recursive: true });
      }),

    createDirTableData: (directory) =>
      guarded("Creating directory", async () => {
        if (options.tableDataDirectory === "") {
          throw new FeatureDisabledError("fileOperations.tableDataDirectory is not configured");
        }
        if (directory.includes("\0")) throw new InvalidPathError("directory must not contain NUL bytes");
        if (isAbsolute(directory) || /^[\\/]/.test(directory)) {
          throw new InvalidPathError("directory must be a path relative to the table-data directory");
        }
        const root = await realDirectory(options.tableDataDirectory);
        const target = await resolveReal(
          normalisePath(join(options.tableDataDirectory, directory), "directory"),
        );
        if (!isInsideOrEqual(target, root)) {
          throw new PathNotApprovedError("Directory must be within the table-data directory");
        }
        await refuseLinks(target, "directory", true);
        await mkdir(target, { recursive: true });
      }),
  };
}
