/**
 * Packs a release folder into its archive with Debian's own tools: `zip` for Windows (what
 * Windows' Explorer opens without help) and `tar` with gzip for Linux (which keeps the
 * executable's mode). The folder is the archive's single top-level entry, so unpacking never
 * scatters files. The archive is written under a temporary name and renamed into place.
 */
import { execFileSync } from "node:child_process";
import { renameSync, rmSync } from "node:fs";
import { basename, dirname } from "node:path";

export function packFolder(folder: string, archive: string): void {
  const partial = `${archive}.partial`;
  rmSync(partial, { force: true });
  const cwd = dirname(folder);
  if (archive.endsWith(".zip")) {
    run("zip", ["-r", "-q", "-X", "-9", partial, basename(folder)], cwd);
  } else {
    run("tar", ["--owner=0", "--group=0", "--numeric-owner", "-czf", partial, basename(folder)], cwd);
  }
  renameSync(partial, archive);
}

function run(tool: string, args: string[], cwd: string): void {
  try {
    execFileSync(tool, args, { cwd, stdio: ["ignore", "ignore", "inherit"] });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new Error(`${tool} is needed to make the archive (apt-get install ${tool})`);
    }
    throw error;
  }
}
