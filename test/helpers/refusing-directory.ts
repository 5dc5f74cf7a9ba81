/**
 * Directories that the OS really refuses to write, for tests of a bad environment. Tests run as
 * root here, and a mode does not stop root: as root a directory is bind-mounted onto itself and
 * remounted read-only (EROFS); as root without the right to mount, a regular file takes the
 * directory's place (ENOTDIR below it); as an ordinary user it is `chmod 0555` (EACCES).
 * A small tmpfs (root only) stands in for a disk that fills up.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";

export const asRoot = process.getuid?.() === 0;

function run(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export interface Refusal {
  /** How the directory was made to refuse writes (for test output). */
  readonly how: string;
  /** Makes the directory writable again, as it was. */
  restore(): void;
}

/** Makes `directory` (created if missing) refuse writes below it until `restore()`. */
export function refuseWrites(directory: string): Refusal {
  mkdirSync(directory, { recursive: true });
  if (!asRoot) {
    chmodSync(directory, 0o555);
    return { how: "mode 0555", restore: () => chmodSync(directory, 0o755) };
  }
  if (run("mount", ["--bind", directory, directory])) {
    if (run("mount", ["-o", "remount,bind,ro", directory])) {
      return { how: "read-only bind mount", restore: () => void run("umount", [directory]) };
    }
    run("umount", [directory]);
  }
  renameSync(directory, `${directory}.aside`);
  writeFileSync(directory, "a regular file where a directory should be\n");
  return {
    how: "regular file in the way",
    restore() {
      rmSync(directory, { force: true });
      renameSync(`${directory}.aside`, directory);
    },
  };
}

export interface SmallDisk {
  readonly path: string;
  /** Unmounts it (what is on it is gone). */
  release(): void;
}

/** A tmpfs of `bytes` mounted on `path`; undefined when this process may not mount (not root). */
export function mountSmallDisk(path: string, bytes: number): SmallDisk | undefined {
  if (!asRoot) return undefined;
  mkdirSync(path, { recursive: true });
  if (!run("mount", ["-t", "tmpfs", "-o", `size=${bytes}`, "tmpfs", path])) return undefined;
  return {
    path,
    release() {
      if (existsSync(path)) run("umount", ["-l", path]);
    },
  };
}

/**
 * Why a test that needs `mountSmallDisk` cannot run here, for `it.skipIf`; in CI (CI=true) it
 * must run, so there the reason is thrown instead.
 */
export function smallDiskUnavailable(): string | undefined {
  const probe = `/tmp/steward-small-disk-probe-${process.pid}`;
  const disk = mountSmallDisk(probe, 1024 * 1024);
  disk?.release();
  rmSync(probe, { recursive: true, force: true });
  if (disk !== undefined) return undefined;
  const reason = asRoot ? "mounting a tmpfs failed (no CAP_SYS_ADMIN?)" : "mounting a tmpfs needs root";
  if (process.env.CI === "true") throw new Error(`disk-full tests must run in CI: ${reason}`);
  console.warn(`SKIPPED disk-full tests: ${reason}`);
  return reason;
}
