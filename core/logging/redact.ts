/**
 * Masks secrets in free text (error messages, stack traces) before it reaches a log line or a
 * crash file: URL credentials, Authorization schemes, and `key=value` / `key: value` /
 * `"key":"value"` pairs whose key names a secret.
 */

const MASK = "[REDACTED]";
const SECRET_KEY =
  "(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|insertapikey|api[_-]?token|access[_-]?key|passphrase|client[_-]?secret|credential|auth(?:orization)?)";

const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+(?::[^/\s@]*)?@/gi;
const AUTH_SCHEME = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/g;
const JSON_PAIR = new RegExp(`("[\\w-]*${SECRET_KEY}[\\w-]*"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, "gi");
const TEXT_PAIR = new RegExp(
  `\\b([\\w-]*${SECRET_KEY}[\\w-]*\\s*[=:]\\s*)(?!\\[REDACTED\\]|(?:Bearer|Basic|Token) \\[REDACTED\\])[^\\s,;&"']+`,
  "gi",
);

export function redactText(text: string): string {
  return text
    .replace(URL_CREDENTIALS, `$1${MASK}@`)
    .replace(AUTH_SCHEME, `$1 ${MASK}`)
    .replace(JSON_PAIR, `$1"${MASK}"`)
    .replace(TEXT_PAIR, `$1${MASK}`);
}
