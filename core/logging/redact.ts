/**
 * Masks secrets in free text (error messages, stack traces) before it reaches a log line or a
 * crash file: URL credentials, Authorization schemes, and `key=value` / `key: value` /
 * `"key":"value"` pairs whose key names a secret.
 *
 * The text often comes from remote servers (an SMTP or webhook answer, an observability
 * platform's error), so the masking must cost little whatever the text is:
 * - The patterns try a key or URL only where a run of its characters begins (a lookbehind), read
 *   the run once (a lookahead and a back-reference, which never backtrack into it) and look for
 *   the secret's name in it lazily; as first written, they tried again from every word boundary
 *   inside a run and backtracked over its rest: 50 kB of `a-a-…` took 7 s and 4 kB of
 *   `pwd-pwd-…` 17 s (measured 2026-12-06 on the shared 2-core machine); now each takes about a
 *   millisecond.
 * - Only the first MAX_REDACTED_CHARS characters are kept, back to the last whitespace among
 *   them (so that a secret cut in two never shows its first half unmasked), the rest replaced by
 *   a note of how many were cut: far more than a log line or a crash file needs (a stack trace is
 *   1–3 kB), and a bound on what any pattern can cost.
 */

const MASK = "[REDACTED]";
/** The longest text masked and kept; the rest is cut. */
export const MAX_REDACTED_CHARS = 8192;
const SECRET_KEY =
  "(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|insertapikey|api[_-]?token|access[_-]?key|passphrase|client[_-]?secret|credential|auth(?:orization)?)";

const URL_CREDENTIALS = /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+(?::[^/\s@]*)?@/gi;
const AUTH_SCHEME = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/g;
/** `"…secret…": "…"`: the key's characters read once ($2), the name looked for lazily. */
const JSON_PAIR = new RegExp(
  `("(?=[\\w-]*?${SECRET_KEY})(?=([\\w-]*))\\2"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`,
  "gi",
);
/** `…secret…=value`, `…secret…: value`: from where the key's run begins, read once ($2). */
const TEXT_PAIR = new RegExp(
  `(?<![\\w-])((?=[\\w-]*?${SECRET_KEY})(?=([\\w-]+))\\2\\s*[=:]\\s*)(?!\\[REDACTED\\]|(?:Bearer|Basic|Token) \\[REDACTED\\])[^\\s,;&"']+`,
  "gi",
);

export function redactText(text: string): string {
  const kept =
    text.length > MAX_REDACTED_CHARS ? beforeLastWhitespace(text.slice(0, MAX_REDACTED_CHARS)) : text;
  const masked = kept
    .replace(URL_CREDENTIALS, `$1${MASK}@`)
    .replace(AUTH_SCHEME, `$1 ${MASK}`)
    .replace(JSON_PAIR, `$1"${MASK}"`)
    .replace(TEXT_PAIR, `$1${MASK}`);
  const cut = text.length - kept.length;
  return cut === 0 ? masked : `${masked}… (${cut} more characters not shown)`;
}

/** `text` up to its last whitespace; empty when it has none. */
function beforeLastWhitespace(text: string): string {
  const last = text.search(/\s\S*$/);
  return last === -1 ? "" : text.slice(0, last);
}
