/**
 * Constant-time secret comparison with Web APIs only (TextEncoder), synchronous so it costs no
 * event-loop turn per request. The bytes are compared without an early exit; only the length can
 * be told apart, as with node:crypto's timingSafeEqual. A candidate of another length is still
 * compared against the secret itself so the work done does not depend on it.
 */

const encoder = new TextEncoder();

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

/** A matcher for one configured secret; the secret is encoded once. */
export function createSecretMatcher(secret: string): (candidate: string) => boolean {
  const expected = encoder.encode(secret);
  return function matchesSecret(candidate) {
    const actual = encoder.encode(candidate);
    if (actual.length !== expected.length) {
      equalBytes(expected, expected);
      return false;
    }
    return equalBytes(expected, actual);
  };
}
