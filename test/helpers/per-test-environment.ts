/**
 * What a bad-environment test sets up for itself, undone when the test finishes (vitest's
 * `onTestFinished`, which runs the last registered first): a scratch directory, removed; a
 * directory made to refuse writes, restored unless the test restored it; a small disk, released.
 * Register them before starting Steward (started-steward.ts), so that Steward is killed first.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { mountSmallDisk, type Refusal, refuseWrites, type SmallDisk } from "./refusing-directory.ts";

/**
 * A new directory under the system's temporary directory, removed when the test finishes. A
 * concurrent test passes its context's `onTestFinished` (the global one may attach to another
 * test running at the same time).
 *
 * The removal runs in the background and is not waited for: a test's verdict is about Steward,
 * not about how fast the machine deletes files. A synchronous removal of a directory that a load
 * test filled once blocked the test's hook past its 30 s limit on a busy 2-core machine and
 * failed a test whose every assertion had passed.
 */
export function scratchDirectory(
  prefix: string,
  finished: (cleanUp: () => void) => void = onTestFinished,
): string {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  finished(() => {
    rm(directory, { recursive: true, force: true, maxRetries: 3 }).catch(() => {
      // Left under the temporary directory, which the system clears; nothing else depends on it.
    });
  });
  return directory;
}

/** `refuseWrites(directory)` until the test restores it or finishes; restoring twice is harmless. */
export function refuseWritesDuringTest(directory: string): Refusal {
  const refusal = refuseWrites(directory);
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    refusal.restore();
  };
  onTestFinished(restore);
  return { how: refusal.how, restore };
}

/** `mountSmallDisk(path, bytes)`, released when the test finishes. */
export function smallDiskDuringTest(path: string, bytes: number): SmallDisk | undefined {
  const disk = mountSmallDisk(path, bytes);
  if (disk !== undefined) onTestFinished(() => disk.release());
  return disk;
}
