import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  loadOrCreateSecretKey,
  SecretKeyFileError,
} from "../../../../../core/adapters/local/secret-key-file.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "steward-key-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("loadOrCreateSecretKey", () => {
  it("creates a 32-byte key in a new directory, readable by its owner only", async () => {
    // Prepare
    const file = join(dir, "nested", "scramble.key");

    // Act
    const key = await loadOrCreateSecretKey(file);

    // Assess
    expect(key).toHaveLength(32);
    expect((await readFile(file, "utf8")).trim()).toBe(Buffer.from(key).toString("hex"));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("returns the same key on every later start", async () => {
    // Prepare
    const file = join(dir, "scramble.key");
    const first = await loadOrCreateSecretKey(file);

    // Act
    const second = await loadOrCreateSecretKey(file);

    // Assess
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
  });

  it("gives two instances different keys", async () => {
    // Act
    const a = await loadOrCreateSecretKey(join(dir, "a.key"));
    const b = await loadOrCreateSecretKey(join(dir, "b.key"));

    // Assess
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
  });

  it("refuses a file that does not hold a key, and leaves it as it was", async () => {
    // Prepare
    const file = join(dir, "scramble.key");
    await writeFile(file, "not a key\n");

    // Act
    const loading = loadOrCreateSecretKey(file);

    // Assess
    await expect(loading).rejects.toBeInstanceOf(SecretKeyFileError);
    expect(await readFile(file, "utf8")).toBe("not a key\n");
  });
});
