/**
 * A random secret generated once and kept in a file under the data directory (e.g. the key that
 * scrambles user names sent to the observability platform): 32 random bytes written as hex with
 * mode 0600, read back on every later start so scrambled values stay comparable across restarts. A
 * file that exists but does not hold a key is an error, never overwritten.
 */
import { randomBytes } from "node:crypto";
import { loadOrCreateFileValue } from "./generated-once-file.ts";

const KEY_BYTES = 32;
const HEX_KEY = new RegExp(`^[0-9a-f]{${KEY_BYTES * 2}}$`);

export class SecretKeyFileError extends Error {
  override name = "SecretKeyFileError";
}

export async function loadOrCreateSecretKey(file: string): Promise<Uint8Array> {
  const hex = await loadOrCreateFileValue(file, {
    valid: (text) => HEX_KEY.test(text),
    generate: () => randomBytes(KEY_BYTES).toString("hex"),
    mode: 0o600,
    invalid: (path) =>
      new SecretKeyFileError(
        `${path} does not hold a ${KEY_BYTES}-byte hex key; remove it to make a new one`,
      ),
  });
  return Uint8Array.from(Buffer.from(hex, "hex"));
}
