/**
 * Scrambling of user identities sent to the observability platform (`userEvents.sendToObsPlatform.
 * scramble`). Butler SOS used an unsalted digest, which a dictionary of user names reverses; a
 * keyed hash (HMAC-SHA-256, first 16 hex characters) keeps equal users equal for dashboards without
 * being reversible by anyone who lacks the key. The key is generated once and kept by the wiring;
 * this module only uses it.
 */
import { createHmac } from "node:crypto";

export class ScrambleKeyError extends Error {
  override name = "ScrambleKeyError";
}

/** Shortest key accepted: 128 bits. */
export const MIN_SCRAMBLE_KEY_BYTES = 16;

export type Scramble = (value: string) => string;

export function createScrambler(key: Uint8Array | undefined): Scramble {
  if (key === undefined || key.length < MIN_SCRAMBLE_KEY_BYTES) {
    throw new ScrambleKeyError(
      `scrambling user identities needs a key of at least ${MIN_SCRAMBLE_KEY_BYTES} bytes, got ${key?.length ?? 0}`,
    );
  }
  const ownKey = Uint8Array.from(key);
  // An empty value identifies nobody; it stays empty rather than becoming a recognisable hash.
  return (value) =>
    value === "" ? "" : createHmac("sha256", ownKey).update(value, "utf8").digest("hex").slice(0, 16);
}
