/**
 * The file operations against a local user who changes the path between Steward's check and its
 * operation, with real symbolic links (Node reports a Windows junction as one, so the same code
 * path refuses junctions). The user acts at a chosen moment: just before the first look at the
 * file system after the approval (`lstat`), or just before the operation itself (`rm`, `cp`,
 * `rename`). Steward's own file-system calls are passed through untouched; only the moment is
 * chosen here, the links and files are real.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createFileOperations } from "../../../../../core/adapters/local/local-file-operations.ts";
import { PathNotApprovedError } from "../../../../../core/files/errors.ts";
import type { FileOperations } from "../../../../../core/ports.ts";

type Moment = "first look" | "operation";

/** The local user's one action, and when it happens. */
const user = vi.hoisted(() => ({
  at: undefined as "first look" | "operation" | undefined,
  act: undefined as (() => void) | undefined,
}));

vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs/promises")>();
  const before =
    <A extends unknown[], R>(moment: "first look" | "operation", call: (...args: A) => R) =>
    (...args: A): R => {
      if (user.at === moment && user.act !== undefined) {
        const act = user.act;
        user.act = undefined;
        act();
      }
      return call(...args);
    };
  return {
    ...real,
    lstat: before("first look", real.lstat),
    rm: before("operation", real.rm),
    cp: before("operation", real.cp),
    rename: before("operation", real.rename),
  };
});

let root: string;
let files: FileOperations;
const p = (...parts: string[]) => join(root, ...parts);

function when(moment: Moment, act: () => void): void {
  user.at = moment;
  user.act = act;
}

/** Points the link at another directory, as `ln -sfn` would. */
function retarget(link: string, to: string): void {
  rmSync(link);
  symlinkSync(to, link);
}

/** Puts a link to `to` where the directory `directory` was. */
function replaceWithLink(directory: string, to: string): void {
  renameSync(directory, `${directory}-moved`);
  symlinkSync(to, directory);
}

beforeEach(() => {
  root = join(tmpdir(), `steward-files-race-${process.pid}-${Date.now()}`);
  for (const dir of [
    "copyfrom",
    "copyto/inner",
    "copyto/sub",
    "movefrom",
    "moveto/inner",
    "del/sub",
    "outside",
  ])
    mkdirSync(p(dir), { recursive: true });
  writeFileSync(p("copyfrom", "a.txt"), "A");
  writeFileSync(p("movefrom", "m.txt"), "M");
  writeFileSync(p("del", "d.txt"), "D");
  writeFileSync(p("del", "sub", "e.txt"), "E");
  writeFileSync(p("outside", "e.txt"), "outside E");
  symlinkSync(p("del", "sub"), p("del", "alias"));
  symlinkSync(p("copyto", "inner"), p("copyto", "alias"));
  symlinkSync(p("moveto", "inner"), p("moveto", "alias"));
  files = createFileOperations({
    copyApprovedDirectories: [{ fromDirectory: p("copyfrom"), toDirectory: p("copyto") }],
    moveApprovedDirectories: [{ fromDirectory: p("movefrom"), toDirectory: p("moveto") }],
    deleteApprovedDirectories: [p("del")],
    tableDataDirectory: "",
  });
});
afterEach(() => {
  user.at = undefined;
  user.act = undefined;
  rmSync(root, { recursive: true, force: true });
});

describe("a link above the path retargeted after the check", () => {
  it("delete removes the file that was approved, not the one the link leads to now", async () => {
    when("operation", () => retarget(p("del", "alias"), p("outside")));

    await files.delete(p("del", "alias", "e.txt"));

    expect(readFileSync(p("outside", "e.txt"), "utf8")).toBe("outside E");
    expect(existsSync(p("del", "sub", "e.txt"))).toBe(false);
  });

  it("copy writes where it was approved to write", async () => {
    when("operation", () => retarget(p("copyto", "alias"), p("outside")));

    await files.copy({
      fromFile: p("copyfrom", "a.txt"),
      toFile: p("copyto", "alias", "a.txt"),
      overwrite: false,
      preserveTimestamp: false,
    });

    expect(readdirSync(p("outside"))).toEqual(["e.txt"]);
    expect(readFileSync(p("copyto", "inner", "a.txt"), "utf8")).toBe("A");
  });

  it("move puts the file where it was approved to go", async () => {
    when("operation", () => retarget(p("moveto", "alias"), p("outside")));

    await files.move({
      fromFile: p("movefrom", "m.txt"),
      toFile: p("moveto", "alias", "m.txt"),
      overwrite: false,
    });

    expect(readdirSync(p("outside"))).toEqual(["e.txt"]);
    expect(readFileSync(p("moveto", "inner", "m.txt"), "utf8")).toBe("M");
  });
});

describe("a directory of the path replaced by a link after the check", () => {
  it("delete refuses with PathNotApprovedError and deletes nothing outside", async () => {
    when("first look", () => replaceWithLink(p("del", "sub"), p("outside")));

    await expect(files.delete(p("del", "sub", "e.txt"))).rejects.toBeInstanceOf(PathNotApprovedError);

    expect(readFileSync(p("outside", "e.txt"), "utf8")).toBe("outside E");
  });

  it("copy refuses with PathNotApprovedError and writes nothing outside", async () => {
    when("first look", () => replaceWithLink(p("copyto", "sub"), p("outside")));

    await expect(
      files.copy({
        fromFile: p("copyfrom", "a.txt"),
        toFile: p("copyto", "sub", "x.txt"),
        overwrite: false,
        preserveTimestamp: false,
      }),
    ).rejects.toBeInstanceOf(PathNotApprovedError);

    expect(readdirSync(p("outside"))).toEqual(["e.txt"]);
  });
});

describe("links named by the path itself", () => {
  it("delete removes a link that points into the approved directory, not what it points to", async () => {
    symlinkSync(p("del", "d.txt"), p("del", "link-to-d"));

    await files.delete(p("del", "link-to-d"));

    expect(readdirSync(p("del")).sort()).toEqual(["alias", "d.txt", "sub"]);
  });

  it("delete refuses a link outside every approved directory even when it points into one", async () => {
    symlinkSync(p("del", "d.txt"), p("outside", "link-in"));

    await expect(files.delete(p("outside", "link-in"))).rejects.toBeInstanceOf(PathNotApprovedError);

    expect(readdirSync(p("outside")).sort()).toEqual(["e.txt", "link-in"]);
    expect(readFileSync(p("del", "d.txt"), "utf8")).toBe("D");
  });
});
