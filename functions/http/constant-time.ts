/**
 * Constant-time secret comparison, synchronous so it costs no event-loop turn per request and
 * allocation-free. The UTF-16 code units are compared without an early exit; only the length can
 * be told apart, as with node:crypto's timingSafeEqual. A candidate of another length is still
 * compared against the secret itself so the work done does not depend on it.
 */

function differenceOf(a: string, b: string): number {
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference;
}

/** A matcher for one configured secret. */
export function createSecretMatcher(secret: string): (candidate: string) => boolean {
  return function matchesSecret(candidate) {
    if (candidate.length !== secret.length) {
      differenceOf(secret, secret);
      return false;
    }
    return differenceOf(secret, candidate) === 0;
  };
}
