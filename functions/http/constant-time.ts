/**
 * Constant-time secret comparison with Web Crypto only: both sides are hashed (SHA-256) so the
 * comparison always runs over 32 bytes, whatever the lengths, and the bytes are compared without
 * an early exit.
 */

const encoder = new TextEncoder();

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** A matcher for one configured secret; the secret's digest is computed once. */
export function createSecretMatcher(secret: string): (candidate: string) => Promise<boolean> {
  const expected = sha256(secret);
  return async function matchesSecret(candidate) {
    const [a, b] = await Promise.all([expected, sha256(candidate)]);
    let difference = 0;
    for (let i = 0; i < a.length; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
    return difference === 0;
  };
}
