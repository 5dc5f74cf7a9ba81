/**
 * The ObjectStore contract: every adapter (local directory, S3 via s3rver) passes the same suite.
 */
import { lstat, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createS3ObjectStore } from "../../core/adapters/aws/s3-object-store.ts";
import { createDirectoryObjectStore } from "../../core/adapters/local/directory-object-store.ts";
import { ObjectKeyError } from "../../core/destinations/object-key.ts";
import type { ObjectStore } from "../../core/ports.ts";
import { type LocalS3, startS3rver } from "../helpers/s3rver.ts";

interface StoreFixture {
  store: ObjectStore;
}

let s3: LocalS3;
const directories: string[] = [];

beforeAll(async () => {
  s3 = await startS3rver();
});

afterAll(async () => {
  await s3.close();
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

async function tempDirectory(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), "steward-store-"));
  directories.push(directory);
  return directory;
}

const adapters: [string, () => Promise<StoreFixture>][] = [
  [
    "directory",
    async () => ({ store: createDirectoryObjectStore(path.join(await tempDirectory(), "root")) }),
  ],
  [
    "s3",
    async () => ({
      store: createS3ObjectStore({
        client: s3.client,
        bucket: s3.bucket,
        prefix: `run-${Math.random()}/events`,
      }),
    }),
  ],
];

describe.each(adapters)("ObjectStore contract: %s", (_name, makeStore) => {
  it("returns the exact bytes that were put", async () => {
    const { store } = await makeStore();
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 7) % 256);

    await store.put("date=2026-03-08/a.parquet", bytes);

    expect(await store.get("date=2026-03-08/a.parquet")).toEqual(bytes);
  });

  it("stores strings as UTF-8 and overwrites an existing key", async () => {
    const { store } = await makeStore();

    await store.put("x.json", "first");
    await store.put("x.json", "zweite 📈");

    expect(new TextDecoder().decode(await store.get("x.json"))).toBe("zweite 📈");
  });

  it("answers undefined for a missing key", async () => {
    const { store } = await makeStore();

    expect(await store.get("nothing/here.json")).toBeUndefined();
  });

  it("lists keys under a prefix, sorted, nested ones included", async () => {
    const { store } = await makeStore();
    await store.put("date=2026-03-09/b.qvd", "b");
    await store.put("date=2026-03-08/a.qvd", "a");
    await store.put("other/c.qvd", "c");

    expect(await store.list("date=")).toEqual(["date=2026-03-08/a.qvd", "date=2026-03-09/b.qvd"]);
    expect(await store.list("")).toHaveLength(3);
  });

  it.each([
    ["../escape.json"],
    ["a/../../escape.json"],
    ["/etc/passwd"],
    ["a\u0000b"],
    ["a\\..\\b"],
    [""],
    ["a//b"],
    ["./a"],
  ])("rejects the key %j with ObjectKeyError", async (key) => {
    const { store } = await makeStore();

    await expect(store.put(key, "x")).rejects.toBeInstanceOf(ObjectKeyError);
    await expect(store.get(key)).rejects.toBeInstanceOf(ObjectKeyError);
  });
});

describe("directory object store", () => {
  it("refuses a key that reaches outside the root through a symlink", async () => {
    const base = await tempDirectory();
    const outside = path.join(base, "outside");
    const root = path.join(base, "root");
    const store = createDirectoryObjectStore(root);
    await store.put("keep.txt", "x");
    await (await import("node:fs/promises")).mkdir(outside);
    await symlink(outside, path.join(root, "link"));

    await expect(store.put("link/evil.json", "x")).rejects.toBeInstanceOf(ObjectKeyError);
    expect(await readdir(outside)).toEqual([]);
  });

  it("replaces a symlink at the key's name instead of writing through it, and refuses to read through it", async () => {
    const base = await tempDirectory();
    const outside = path.join(base, "outside.json");
    await writeFile(outside, "untouched");
    const root = path.join(base, "root");
    const store = createDirectoryObjectStore(root);
    await store.put("keep.txt", "x");
    await symlink(outside, path.join(root, "target.json"));

    await expect(store.get("target.json")).rejects.toBeInstanceOf(ObjectKeyError);
    await store.put("target.json", "inside");

    expect(await readFile(outside, "utf8")).toBe("untouched");
    expect((await lstat(path.join(root, "target.json"))).isSymbolicLink()).toBe(false);
    expect(new TextDecoder().decode(await store.get("target.json"))).toBe("inside");
  });

  it("leaves no temporary files behind", async () => {
    const root = path.join(await tempDirectory(), "root");
    const store = createDirectoryObjectStore(root);

    await Promise.all(Array.from({ length: 20 }, (_, i) => store.put(`d/${i}.json`, `${i}`)));

    expect(await readdir(path.join(root, "d"))).toHaveLength(20);
    expect(await store.list("")).toHaveLength(20);
  });
});
