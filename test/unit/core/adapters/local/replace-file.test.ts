/**
 * Replacing a file while, on Windows, another program holds it: the rename is tried again and the
 * new content arrives; a hold that outlasts the retries is reported and the file keeps its old
 * content (nothing half-written, and the caller still has what it wanted to write). The rename is
 * injected: it refuses as Windows does, then renames for real.
 */
import { readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replaceFile } from "../../../../../core/adapters/local/replace-file.ts";
import { scratchDirectory } from "../../../../helpers/per-test-environment.ts";

/** A rename that Windows refuses `times` times (another program holds the target), then does. */
function heldFor(times: number) {
  let refused = 0;
  return async (from: string, to: string) => {
    if (refused < times) {
      refused++;
      throw Object.assign(new Error(`EPERM: operation not permitted, rename '${from}' -> '${to}'`), {
        code: "EPERM",
        syscall: "rename",
      });
    }
    await rename(from, to);
  };
}

describe("replaceFile on Windows", () => {
  it("replaces a file that another program held for a moment", async () => {
    const directory = scratchDirectory("steward-replace-");
    const file = join(directory, "destinations.json");
    await writeFile(file, "old");
    await replaceFile(file, "new", { platform: "win32", rename: heldFor(3) });
    expect(await readFile(file, "utf8")).toBe("new");
    expect(await readdir(directory)).toEqual(["destinations.json"]);
  });

  it("reports a hold that outlasts the retries and leaves the old content in place", async () => {
    const directory = scratchDirectory("steward-replace-");
    const file = join(directory, "destinations.json");
    await writeFile(file, "old");
    await expect(replaceFile(file, "new", { platform: "win32", rename: heldFor(100) })).rejects.toThrow(
      "still refused after 6 attempts",
    );
    expect(await readFile(file, "utf8")).toBe("old");
  });
});
