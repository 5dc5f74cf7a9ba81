import { readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { json } from "../../../helpers/rest-app.ts";
import { restTestAppForSuite } from "../../../helpers/suite-rest-app.ts";

const t = restTestAppForSuite();
const f = (...parts: string[]) => t.path("files", ...parts);
const outsideListing = async () => (await readdir(f("outside"), { recursive: true })).sort();

beforeAll(async () => {
  await writeFile(f("copyfrom", "a.txt"), "A");
  await writeFile(f("movefrom", "m.txt"), "M");
  await writeFile(f("del", "d.txt"), "D");
  await writeFile(f("outside", "secret.txt"), "S");
  await symlink(f("outside"), f("copyfrom", "out"));
  await symlink(f("outside"), f("del", "out"));
  await symlink(f("outside"), f("table", "out"));
});

const request = (method: string, path: string, body: unknown) => t.app.request(path, json(method, body));

describe("file endpoints", () => {
  it("PUT /v4/filecopy answers 201 with normalised paths and defaults", async () => {
    const response = await request("PUT", "/v4/filecopy", {
      fromFile: `${f("copyfrom")}/../copyfrom/a.txt`,
      toFile: f("copyto", "a.txt"),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      fromFile: f("copyfrom", "a.txt"),
      toFile: f("copyto", "a.txt"),
      overwrite: false,
      preserveTimestamp: false,
    });
    expect(await readFile(f("copyto", "a.txt"), "utf8")).toBe("A");
  });

  it("copy onto an existing target with overwrite false answers 409; missing source 404; unapproved 403", async () => {
    const conflict = await request("PUT", "/v4/filecopy", {
      fromFile: f("copyfrom", "a.txt"),
      toFile: f("copyto", "a.txt"),
    });
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({
      statusCode: 409,
      error: "Conflict",
      message: "toFile exists and overwrite is false",
    });
    const missing = await request("PUT", "/v4/filecopy", {
      fromFile: f("copyfrom", "x"),
      toFile: f("copyto", "x"),
    });
    expect(missing.status).toBe(404);
    const forbidden = await request("PUT", "/v4/filecopy", {
      fromFile: f("copyfrom", "a.txt"),
      toFile: f("outside", "a"),
    });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({
      statusCode: 403,
      error: "Forbidden",
      message: "No approved fromDir/toDir for file copy",
    });
  });

  it("PUT /v4/filemove answers 201, and 409 onto an existing target", async () => {
    const moved = await request("PUT", "/v4/filemove", {
      fromFile: f("movefrom", "m.txt"),
      toFile: f("moveto", "m.txt"),
    });
    expect(moved.status).toBe(201);
    expect(await moved.json()).toEqual({
      fromFile: f("movefrom", "m.txt"),
      toFile: f("moveto", "m.txt"),
      overwrite: false,
    });
    await writeFile(f("movefrom", "m.txt"), "M2");
    const conflict = await request("PUT", "/v4/filemove", {
      fromFile: f("movefrom", "m.txt"),
      toFile: f("moveto", "m.txt"),
    });
    expect(conflict.status).toBe(409);
  });

  it("DELETE /v4/filedelete answers 200 {} and 404 for a missing file", async () => {
    const deleted = await request("DELETE", "/v4/filedelete", { deleteFile: f("del", "d.txt") });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({});
    expect((await request("DELETE", "/v4/filedelete", { deleteFile: f("del", "d.txt") })).status).toBe(404);
  });

  it("POST /v4/createdirqvd and /v4/createdir answer 201 with the directory echoed", async () => {
    const table = await request("POST", "/v4/createdirqvd", { directory: "sub1/2024-01" });
    expect(table.status).toBe(201);
    expect(await table.json()).toEqual({ directory: "sub1/2024-01" });
    expect((await stat(f("table", "sub1", "2024-01"))).isDirectory()).toBe(true);
    const anywhere = await request("POST", "/v4/createdir", { directory: t.path("made", "here") });
    expect(anywhere.status).toBe(201);
    expect((await stat(t.path("made", "here"))).isDirectory()).toBe(true);
  });
});

describe("file endpoints: path tricks never touch anything outside approved directories", () => {
  const tricks: [string, string, () => unknown, number][] = [
    [
      "copy .. escape",
      "/v4/filecopy",
      () => ({ fromFile: f("copyfrom", "..", "outside", "secret.txt"), toFile: f("copyto", "s") }),
      403,
    ],
    [
      "copy via symlink out",
      "/v4/filecopy",
      () => ({ fromFile: f("copyfrom", "out", "secret.txt"), toFile: f("copyto", "s") }),
      403,
    ],
    [
      "copy to absolute system path",
      "/v4/filecopy",
      () => ({ fromFile: f("copyfrom", "a.txt"), toFile: "/etc/steward-test" }),
      403,
    ],
    [
      "copy with NUL",
      "/v4/filecopy",
      () => ({ fromFile: `${f("copyfrom", "a.txt")}\u0000.x`, toFile: f("copyto", "n") }),
      400,
    ],
    [
      "copy long name",
      "/v4/filecopy",
      () => ({ fromFile: f("copyfrom", "a".repeat(256)), toFile: f("copyto", "l") }),
      400,
    ],
    [
      "move to outside",
      "/v4/filemove",
      () => ({ fromFile: f("movefrom", "m.txt"), toFile: f("outside", "m.txt"), overwrite: true }),
      403,
    ],
    [
      "delete .. escape",
      "/v4/filedelete",
      () => ({ deleteFile: f("del", "..", "outside", "secret.txt") }),
      403,
    ],
    ["delete through symlink", "/v4/filedelete", () => ({ deleteFile: f("del", "out", "secret.txt") }), 403],
    ["delete approved root", "/v4/filedelete", () => ({ deleteFile: f("del") }), 403],
    [
      "delete relative escape",
      "/v4/filedelete",
      () => ({ deleteFile: "../../../../../../../../etc/passwd" }),
      403,
    ],
    ["delete with NUL", "/v4/filedelete", () => ({ deleteFile: `${f("del")}/x\u0000` }), 400],
    ["delete empty", "/v4/filedelete", () => ({ deleteFile: "" }), 400],
    ["delete UNC", "/v4/filedelete", () => ({ deleteFile: "//server/share/x" }), 400],
    ["createdirqvd .. escape", "/v4/createdirqvd", () => ({ directory: "../outside/x" }), 403],
    ["createdirqvd via symlink", "/v4/createdirqvd", () => ({ directory: "out/x" }), 403],
    ["createdirqvd absolute", "/v4/createdirqvd", () => ({ directory: "/tmp/x" }), 400],
    ["createdirqvd NUL", "/v4/createdirqvd", () => ({ directory: "a\u0000b" }), 400],
    ["createdir over-long name", "/v4/createdir", () => ({ directory: t.path("x".repeat(300)) }), 400],
    ["wrong types", "/v4/filecopy", () => ({ fromFile: 1, toFile: ["x"], overwrite: "yes" }), 400],
  ];
  it.each(tricks)("%s → %i", async (_name, path, body, status) => {
    const before = await outsideListing();
    const method = path === "/v4/filedelete" ? "DELETE" : path.startsWith("/v4/file") ? "PUT" : "POST";
    const response = await request(method, path, body());
    expect(response.status).toBe(status);
    const answer = (await response.json()) as { statusCode: number; message: string };
    expect(answer.statusCode).toBe(status);
    expect(answer.message).not.toMatch(/at .*\.ts:\d+/); // no stack trace
    expect(await outsideListing()).toEqual(before);
    expect(await readFile(f("outside", "secret.txt"), "utf8")).toBe("S");
  });
});
