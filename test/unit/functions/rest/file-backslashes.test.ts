/**
 * Backslashes in the paths of the file endpoints are separators on every OS, as the documented
 * system treats them: a Windows-style traversal is refused like a `/` one, and `a\b` is two
 * directories, never one name with a backslash in it.
 */
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { json } from "../../../helpers/rest-app.ts";
import { restTestAppForSuite } from "../../../helpers/suite-rest-app.ts";

const t = restTestAppForSuite();
const f = (...parts: string[]) => t.path("files", ...parts);
const listing = async (...parts: string[]) => (await readdir(f(...parts), { recursive: true })).sort();
const request = (method: string, path: string, body: unknown) => t.app.request(path, json(method, body));

beforeAll(async () => {
  await writeFile(f("copyfrom", "a.txt"), "A");
  await writeFile(f("movefrom", "m.txt"), "M");
  await writeFile(f("del", "d.txt"), "D");
  await writeFile(f("outside", "secret.txt"), "S");
});

/** The traversal strings, as a load script would send them (one and two backslashes). */
const TRAVERSALS = ["..\\..\\Windows", "..\\\\..\\\\x", "a\\..\\..\\b"];

describe("backslashes in file paths", () => {
  it.each(TRAVERSALS)("createdirqvd refuses %s with 403 and creates nothing", async (directory) => {
    const before = await listing("table");
    const response = await request("POST", "/v4/createdirqvd", { directory });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      statusCode: 403,
      error: "Forbidden",
      message: "Directory must be within the table-data directory",
    });
    expect(await listing("table")).toEqual(before);
    expect((await readdir(t.path("files"))).some((name) => name.includes("\\"))).toBe(false);
  });

  it("createdirqvd makes a\\b two nested directories", async () => {
    const response = await request("POST", "/v4/createdirqvd", { directory: "a\\b" });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ directory: "a\\b" });
    expect((await stat(f("table", "a", "b"))).isDirectory()).toBe(true);
    expect(await readdir(f("table"))).not.toContain("a\\b");
  });

  it("createdir makes base\\a\\b nested directories", async () => {
    const response = await request("POST", "/v4/createdir", { directory: `${t.path("made")}\\a\\b` });
    expect(response.status).toBe(201);
    expect((await stat(t.path("made", "a", "b"))).isDirectory()).toBe(true);
    expect((await readdir(t.dir)).some((name) => name.includes("\\"))).toBe(false);
  });

  it.each(TRAVERSALS)("filecopy refuses a source climbing out with %s (403)", async (trick) => {
    const response = await request("PUT", "/v4/filecopy", {
      fromFile: `${f("copyfrom")}/${trick}`,
      toFile: f("copyto", "s.txt"),
    });
    expect(response.status).toBe(403);
    expect(await listing("copyto")).toEqual([]);
  });

  it.each(TRAVERSALS)("filemove refuses a target climbing out with %s (403)", async (trick) => {
    const response = await request("PUT", "/v4/filemove", {
      fromFile: f("movefrom", "m.txt"),
      toFile: `${f("moveto")}/${trick}`,
    });
    expect(response.status).toBe(403);
    expect(await listing("moveto")).toEqual([]);
    expect(await readFile(f("movefrom", "m.txt"), "utf8")).toBe("M");
  });

  it.each(TRAVERSALS)("filedelete refuses a path climbing out with %s (403)", async (trick) => {
    const response = await request("DELETE", "/v4/filedelete", {
      deleteFile: `${f("del")}/${trick}`,
    });
    expect(response.status).toBe(403);
    expect(await readFile(f("outside", "secret.txt"), "utf8")).toBe("S");
  });

  it("filecopy reads backslashes as separators inside the approved directories", async () => {
    const response = await request("PUT", "/v4/filecopy", {
      fromFile: `${f("copyfrom")}\\a.txt`,
      toFile: `${f("copyto")}\\sub\\a2.txt`,
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      fromFile: f("copyfrom", "a.txt"),
      toFile: f("copyto", "sub", "a2.txt"),
    });
    expect(await readFile(f("copyto", "sub", "a2.txt"), "utf8")).toBe("A");
  });

  it("filedelete deletes a file named with backslashes", async () => {
    const response = await request("DELETE", "/v4/filedelete", { deleteFile: `${f("del")}\\d.txt` });
    expect(response.status).toBe(200);
    await expect(stat(f("del", "d.txt"))).rejects.toThrow();
  });
});
