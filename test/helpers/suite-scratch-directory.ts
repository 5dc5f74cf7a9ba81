/**
 * A scratch directory for the tests of one file or `describe`: made under the system's temporary
 * directory before them and removed after them. Each `fresh()` names a new path inside it (not
 * created), so that every test has a place of its own.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";

export interface SuiteScratchDirectory {
  /** The directory itself (usable inside the tests). */
  readonly root: string;
  /** A new path `<root>/<name>-<n>`, different on every call. */
  fresh(name?: string): string;
}

/** Call it at the top of a file or a `describe`. */
export function suiteScratchDirectory(prefix: string): SuiteScratchDirectory {
  let root: string | undefined;
  let count = 0;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });
  const made = (): string => {
    if (root === undefined) throw new Error("the scratch directory is made before the suite's tests");
    return root;
  };
  return {
    get root() {
      return made();
    },
    fresh: (name = "case") => join(made(), `${name}-${count++}`),
  };
}
