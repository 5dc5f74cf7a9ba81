/**
 * A random secret generated once and kept in a file under the data directory (e.g. the key that
 * scrambles user names sent to the observability platform, CONTRACT §7): 32 random bytes written
 * as hex with mode 0600, read back on every later start so scrambled values stay comparable
 * across restarts. A file that exists but does not hold a key is an error, never overwritten.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

const KEY_BYTES = 32;

export class SecretKeyFileError extends Error {
  override name = "SecretKeyFileError";
}

export async function loadOrCreateSecretKey(file: string): Promise<Uint8Array> {
  let text: string | undefined;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (text !== undefined) {
    const hex = text.trim();
    if (!new RegExp(`^[0-9a-f]{${KEY_BYTES * 2}}$`).test(hex)) {
      throw new SecretKeyFileError(
        `${file} does not hold a ${KEY_BYTES}-byte hex key; remove it to make a new one`,
      );
    }
    return Uint8Array.from(Buffer.from(hex, "hex"));
  }
  const key = randomBytes(KEY_BYTES);
  await mkdir(dirname(file), { recursive: true });
  // "wx": two processes starting at once never overwrite each other's key.
  try {
    await writeFile(file, `${key.toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return loadOrCreateSecretKey(file);
    throw error;
  }
  return Uint8Array.from(key);
}
