/**
 * What a bad-environment test sets up for itself, undone when the test finishes (vitest's
 * `onTestFinished`, which runs the last registered first): a scratch directory, removed; a
 * directory made to refuse writes, restored unless the test restored it; a small disk, released.
 * Register them before starting Steward (started-steward.ts), so that Steward is killed first.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { mountSmallDisk, type Refusal, refuseWrites, type SmallDisk } from "./refusing-directory.ts";

/**
 * A new directory under the system's temporary directory, removed when the test finishes. A
 * concurrent test passes its context's `onTestFinished` (the global one may attach to another
 * test running at the same time).
 */
export function scratchDirectory(
  prefix: string,
  finished: (cleanUp: () => void) => void = onTestFinished,
): string {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  finished(() => rmSync(directory, { recursive: true, force: true, maxRetries: 3 }));
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
