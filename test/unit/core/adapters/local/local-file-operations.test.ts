import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileOperations } from "../../../../../core/adapters/local/local-file-operations.ts";
import {
  FilePermissionError,
  InvalidPathError,
  PathNotApprovedError,
  SourceNotFoundError,
  TargetExistsError,
} from "../../../../../core/files/errors.ts";
import type { FileOperations } from "../../../../../core/ports.ts";
import { FeatureDisabledError } from "../../../../../core/upstream-error.ts";

let root: string;
let files: FileOperations;
const p = (...parts: string[]) => join(root, ...parts);

async function snapshotOutside(): Promise<string[]> {
  return (await readdir(p("outside"), { recursive: true })).sort();
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "steward-files-"));
  for (const dir of ["copyfrom/sub", "copyto", "movefrom/sub", "moveto", "del/sub", "table", "outside"]) {
    await mkdir(p(dir), { recursive: true });
  }
  await writeFile(p("copyfrom", "a.txt"), "A");
  await writeFile(p("copyfrom", "sub", "b.txt"), "B");
  await writeFile(p("movefrom", "m.txt"), "M");
  await writeFile(p("movefrom", "sub", "n.txt"), "N");
  await writeFile(p("del", "d.txt"), "D");
  await writeFile(p("del", "sub", "e.txt"), "E");
  await writeFile(p("outside", "secret.txt"), "S");
  await symlink(p("outside", "secret.txt"), p("copyfrom", "link-out.txt"));
  await symlink(p("outside"), p("copyto", "dirlink"));
  await symlink(p("outside"), p("del", "dirlink"));
  await symlink(p("outside"), p("table", "escape"));
  files = createFileOperations({
    copyApprovedDirectories: [{ fromDirectory: p("copyfrom"), toDirectory: p("copyto") }],
    moveApprovedDirectories: [{ fromDirectory: p("movefrom"), toDirectory: p("moveto") }],
    deleteApprovedDirectories: [p("del")],
    tableDataDirectory: p("table"),
  });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("file copy", () => {
  it("copies a file and echoes normalised paths", async () => {
    const result = await files.copy({
      fromFile: p("copyfrom", "..", "movefrom", "..", "copyfrom", "a.txt"),
      toFile: p("copyto", "new", "a2.txt"),
      overwrite: false,
      preserveTimestamp: false,
    });
    expect(result.fromFile).toBe(p("copyfrom", "a.txt"));
    expect(await readFile(p("copyto", "new", "a2.txt"), "utf8")).toBe("A");
  });

  it("copies directories recursively", async () => {
    await files.copy({
      fromFile: p("copyfrom", "sub"),
      toFile: p("copyto", "sub"),
      overwrite: false,
      preserveTimestamp: false,
    });
    expect(await readFile(p("copyto", "sub", "b.txt"), "utf8")).toBe("B");
  });

  it("keeps the source timestamp only when preserveTimestamp is true", async () => {
    const old = new Date("2020-01-01T00:00:00Z");
    await utimes(p("copyfrom", "a.txt"), old, old);
    await files.copy({
      fromFile: p("copyfrom", "a.txt"),
      toFile: p("copyto", "kept.txt"),
      overwrite: false,
      preserveTimestamp: true,
    });
    await files.copy({
      fromFile: p("copyfrom", "a.txt"),
      toFile: p("copyto", "fresh.txt"),
      overwrite: false,
      preserveTimestamp: false,
    });
    expect((await stat(p("copyto", "kept.txt"))).mtime.toISOString()).toBe(old.toISOString());
    expect((await stat(p("copyto", "fresh.txt"))).mtimeMs).toBeGreaterThan(old.getTime() + 1000);
  });

  it("refuses an existing target with TargetExistsError unless overwrite is true", async () => {
    await writeFile(p("copyto", "a.txt"), "old");
    const request = {
      fromFile: p("copyfrom", "a.txt"),
      toFile: p("copyto", "a.txt"),
      preserveTimestamp: false,
    };
    await expect(files.copy({ ...request, overwrite: false })).rejects.toBeInstanceOf(TargetExistsError);
    expect(await readFile(p("copyto", "a.txt"), "utf8")).toBe("old");
    await files.copy({ ...request, overwrite: true });
    expect(await readFile(p("copyto", "a.txt"), "utf8")).toBe("A");
  });

  it("answers SourceNotFoundError for a missing source inside an approved directory", async () => {
    await expect(
      files.copy({
        fromFile: p("copyfrom", "nope"),
        toFile: p("copyto", "x"),
        overwrite: false,
        preserveTimestamp: false,
      }),
    ).rejects.toBeInstanceOf(SourceNotFoundError);
  });

  it.each([
    ["a source outside", () => p("outside", "secret.txt"), () => p("copyto", "x.txt")],
    ["a target outside", () => p("copyfrom", "a.txt"), () => p("outside", "x.txt")],
    ["a .. escape", () => p("copyfrom", "..", "outside", "secret.txt"), () => p("copyto", "x.txt")],
    ["a symlinked source pointing out", () => p("copyfrom", "link-out.txt"), () => p("copyto", "x.txt")],
    [
      "a target under a symlinked directory pointing out",
      () => p("copyfrom", "a.txt"),
      () => p("copyto", "dirlink", "x.txt"),
    ],
    ["the approved directory itself", () => p("copyfrom"), () => p("copyto", "all")],
    ["a pair from different approvals", () => p("movefrom", "m.txt"), () => p("copyto", "x.txt")],
  ])("refuses %s with PathNotApprovedError and touches nothing", async (_name, from, to) => {
    const before = await snapshotOutside();
    await expect(
      files.copy({ fromFile: from(), toFile: to(), overwrite: true, preserveTimestamp: false }),
    ).rejects.toBeInstanceOf(PathNotApprovedError);
    expect(await snapshotOutside()).toEqual(before);
    expect(await readdir(p("copyto"))).toEqual(["dirlink"]);
  });

  it.each([
    ["a NUL byte", () => p("copyfrom", "a\0.txt")],
    ["an over-long name", () => p("copyfrom", "x".repeat(300))],
    ["an over-long path", () => p("copyfrom", ...Array.from({ length: 500 }, () => "abcdefghij"))],
    ["an empty path", () => ""],
    ["a UNC path", () => "//server/share/a.txt"],
  ])("refuses %s with InvalidPathError", async (_name, from) => {
    await expect(
      files.copy({ fromFile: from(), toFile: p("copyto", "x"), overwrite: false, preserveTimestamp: false }),
    ).rejects.toBeInstanceOf(InvalidPathError);
  });
});

describe("file move", () => {
  it("moves files and directories, creating parents", async () => {
    await files.move({
      fromFile: p("movefrom", "m.txt"),
      toFile: p("moveto", "deep", "m.txt"),
      overwrite: false,
    });
    await files.move({ fromFile: p("movefrom", "sub"), toFile: p("moveto", "sub"), overwrite: false });
    expect(await readFile(p("moveto", "deep", "m.txt"), "utf8")).toBe("M");
    expect(await readFile(p("moveto", "sub", "n.txt"), "utf8")).toBe("N");
    expect(await readdir(p("movefrom"))).toEqual([]);
  });

  it("refuses an existing target with TargetExistsError unless overwrite is true", async () => {
    await writeFile(p("moveto", "m.txt"), "old");
    const request = { fromFile: p("movefrom", "m.txt"), toFile: p("moveto", "m.txt") };
    await expect(files.move({ ...request, overwrite: false })).rejects.toBeInstanceOf(TargetExistsError);
    expect(await readFile(p("movefrom", "m.txt"), "utf8")).toBe("M");
    await files.move({ ...request, overwrite: true });
    expect(await readFile(p("moveto", "m.txt"), "utf8")).toBe("M");
  });

  it("refuses moving out of or into unapproved places", async () => {
    await expect(
      files.move({ fromFile: p("copyfrom", "a.txt"), toFile: p("moveto", "a.txt"), overwrite: false }),
    ).rejects.toBeInstanceOf(PathNotApprovedError);
    await expect(
      files.move({
        fromFile: p("movefrom", "m.txt"),
        toFile: p("moveto", "..", "outside", "m.txt"),
        overwrite: false,
      }),
    ).rejects.toBeInstanceOf(PathNotApprovedError);
    expect(await readFile(p("movefrom", "m.txt"), "utf8")).toBe("M");
  });
});

describe("file delete", () => {
  it("deletes a file and a directory recursively", async () => {
    await files.delete(p("del", "d.txt"));
    await files.delete(p("del", "sub"));
    expect((await readdir(p("del"))).sort()).toEqual(["dirlink"]);
  });

  it("answers SourceNotFoundError for a missing file", async () => {
    await expect(files.delete(p("del", "nope.txt"))).rejects.toBeInstanceOf(SourceNotFoundError);
  });

  it.each([
    ["the approved directory itself", () => p("del")],
    ["a .. escape", () => p("del", "..", "outside", "secret.txt")],
    ["a file through a symlink pointing out", () => p("del", "dirlink", "secret.txt")],
    ["a relative path leaving the cwd", () => "../../../../../../etc/passwd"],
    ["an absolute system path", () => "/etc/passwd"],
  ])("refuses %s with PathNotApprovedError", async (_name, target) => {
    const before = await snapshotOutside();
    await expect(files.delete(target())).rejects.toBeInstanceOf(PathNotApprovedError);
    expect(await snapshotOutside()).toEqual(before);
    expect((await readdir(p("del"))).sort()).toEqual(["d.txt", "dirlink", "sub"]);
  });
});

describe("create directories", () => {
  it("creates a directory anywhere, idempotently", async () => {
    await files.createDir(p("anywhere", "x", "y"));
    await files.createDir(p("anywhere", "x", "y"));
    expect((await stat(p("anywhere", "x", "y"))).isDirectory()).toBe(true);
  });

  it("reports a directory under a regular file as InvalidPathError", async () => {
    await expect(files.createDir(p("copyfrom", "a.txt", "sub"))).rejects.toBeInstanceOf(InvalidPathError);
  });

  it("creates table-data directories inside the table-data directory only", async () => {
    await files.createDirTableData("sub1/2024-01");
    expect((await stat(p("table", "sub1", "2024-01"))).isDirectory()).toBe(true);
    await expect(files.createDirTableData("../escape")).rejects.toBeInstanceOf(PathNotApprovedError);
    await expect(files.createDirTableData("escape/new")).rejects.toBeInstanceOf(PathNotApprovedError);
    await expect(files.createDirTableData("/abs/path")).rejects.toBeInstanceOf(InvalidPathError);
    await expect(files.createDirTableData("a\0b")).rejects.toBeInstanceOf(InvalidPathError);
    expect(await snapshotOutside()).toEqual(["secret.txt"]);
  });

  it("answers FeatureDisabledError when no table-data directory is configured", async () => {
    const unconfigured = createFileOperations({
      copyApprovedDirectories: [],
      moveApprovedDirectories: [],
      deleteApprovedDirectories: [],
      tableDataDirectory: "",
    });
    await expect(unconfigured.createDirTableData("x")).rejects.toBeInstanceOf(FeatureDisabledError);
  });

  it("maps a permission refusal to FilePermissionError", async () => {
    // /sys refuses mkdir even to root (EPERM); elsewhere a read-only directory does for users.
    const refused = process.getuid?.() === 0 ? "/sys/steward-test-dir" : p("locked", "x");
    if (process.getuid?.() !== 0) await mkdir(p("locked"), { mode: 0o500 });
    await expect(files.createDir(refused)).rejects.toBeInstanceOf(FilePermissionError);
  });
});
