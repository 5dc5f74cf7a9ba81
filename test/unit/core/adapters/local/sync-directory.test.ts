/**
 * The directory-sync rule: a real fsync of the directory where the platform has one, nothing at
 * all on Windows, decided before anything is opened (a missing directory shows it: Linux's sync
 * fails on it, Windows' rule never looks).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { directoriesCanBeSynced, syncDirectory } from "../../../../../core/adapters/local/sync-directory.ts";
import { scratchDirectory } from "../../../../helpers/per-test-environment.ts";

describe("syncDirectory", () => {
  it("syncs a directory on Linux, and a directory that is not there is an error", async () => {
    const directory = scratchDirectory("steward-sync-dir-");
    await expect(syncDirectory(directory, "linux")).resolves.toBeUndefined();
    await expect(syncDirectory(join(directory, "missing"), "linux")).rejects.toMatchObject({
      code: "ENOENT",
    });
    expect(directoriesCanBeSynced("linux")).toBe(true);
  });

  it("opens nothing on Windows, where a directory cannot be opened for flushing", async () => {
    const directory = scratchDirectory("steward-sync-dir-");
    await expect(syncDirectory(join(directory, "missing"), "win32")).resolves.toBeUndefined();
    expect(directoriesCanBeSynced("win32")).toBe(false);
  });
});
