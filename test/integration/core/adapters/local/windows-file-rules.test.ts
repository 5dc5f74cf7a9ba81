/**
 * The file rules of Windows, proven with the Windows node.exe under Wine (wine.ts) on Steward's own
 * code (test/fixtures/windows/file-rules-probe.ts, bundled into one file): a directory cannot be
 * fsync'ed there (Node answers EPERM) and the directory-sync rule does not try; a file replaced
 * while another handle holds it is replaced once the holder lets go, and one held past the retries
 * is reported with the old content kept; the REST file API's operations take drive paths in any
 * case and with backslashes, refuse an alternate data stream, a device name and a `..` escape, and
 * refuse a move onto the same file spelt in another case (which would delete it first).
 */
import { join } from "node:path";
import { buildSync } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { suiteScratchDirectory } from "../../../../helpers/suite-scratch-directory.ts";
import { onDriveZ, skipWithoutWindowsNode, spawnWindowsNode } from "../../../../helpers/wine.ts";

const skip = skipWithoutWindowsNode("Windows file rules under Wine");
const scratch = suiteScratchDirectory("steward-windows-files-");

interface Attempt {
  ok: boolean;
  error?: string;
  code?: string;
  ms: number;
}
interface Probe {
  platform: string;
  rawDirectorySync: Attempt;
  syncDirectory: Attempt;
  heldBriefly: Attempt & { content: string };
  heldLong: Attempt & { content: string };
  fileApi: Record<"copy" | "stream" | "device" | "escape" | "caseMove" | "deleteDevice", Attempt> & {
    copied: string;
    afterCaseMove: string;
  };
}

let probe: Probe;
beforeAll(async () => {
  if (skip) return;
  const directory = scratch.fresh("probe");
  const script = join(directory, "file-rules-probe.mjs");
  buildSync({
    entryPoints: [
      join(import.meta.dirname, "..", "..", "..", "..", "fixtures", "windows", "file-rules-probe.ts"),
    ],
    outfile: script,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    logLevel: "warning",
  });
  const node = spawnWindowsNode([onDriveZ(script), onDriveZ(directory)], {
    cwd: directory,
    outputFile: join(directory, "output.txt"),
  });
  const { code } = await node.exited(60_000);
  const lines = node.output().trim().split("\n");
  if (code !== 0) throw new Error(`the probe exited with ${code}:\n${node.output()}`);
  probe = JSON.parse(lines.at(-1) ?? "") as Probe;
}, 60_000);

describe.skipIf(skip)("file rules under the Windows node.exe (Wine)", () => {
  it("runs as win32, where fsync of a directory is refused, and syncs no directory", () => {
    expect(probe.platform).toBe("win32");
    expect(probe.rawDirectorySync).toMatchObject({ ok: false, code: "EPERM" });
    expect(probe.syncDirectory).toMatchObject({ ok: true });
  });

  it("replaces a file another handle held for 300 ms, once it is let go", () => {
    expect(probe.heldBriefly).toMatchObject({ ok: true, content: "new" });
    expect(probe.heldBriefly.ms).toBeGreaterThanOrEqual(250);
  });

  it("reports a file held past the retries, within a second, and keeps its old content", () => {
    expect(probe.heldLong).toMatchObject({ ok: false, code: "EPERM", content: "old" });
    expect(probe.heldLong.error).toContain("still refused after 6 attempts over 775 ms");
  });

  it("copies between approved drive paths given in another case and with backslashes", () => {
    expect(probe.fileApi.copy).toMatchObject({ ok: true });
    expect(probe.fileApi.copied).toBe("A");
  });

  it("refuses an alternate data stream, a device name and a .. escape", () => {
    expect(probe.fileApi.stream).toMatchObject({ ok: false });
    expect(probe.fileApi.stream.error).toContain("InvalidPathError");
    expect(probe.fileApi.stream.error).toContain("alternate data stream");
    expect(probe.fileApi.device.error).toContain("device name");
    expect(probe.fileApi.deleteDevice.error).toContain("device name");
    expect(probe.fileApi.escape.error).toContain("PathNotApprovedError");
  });

  it("refuses a move onto the same file in another case, and the file stays", () => {
    expect(probe.fileApi.caseMove.error).toContain("fromFile and toFile are the same path");
    expect(probe.fileApi.afterCaseMove).toBe("A");
  });
});
