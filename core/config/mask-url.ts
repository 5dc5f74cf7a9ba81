/**
 * Credentials inside a URL, masked, for every place a URL is shown or logged: the configuration
 * (config UI, downloads, anything obfuscate.ts masks) and the log lines that name a URL (the
 * heartbeat, telemetry, InfluxDB requests). What goes:
 *
 * - the user name and password (`https://user:pass@host`),
 * - every query value (`?ticket=…`, `?api_key=…`; the names stay, they say what the URL does),
 * - the fragment,
 * - every path segment that looks like a key or an id: 8 characters or more holding a digit or
 *   both letter cases, or 20 characters or more of anything (`/ping/8f14e45f-secret-check-id`, a
 *   UUID, an account number). Words such as `/api/v2/write` or `/sense/app` stay readable.
 *   For a URL whose path is its secret (an uptime service's check URL), every segment goes.
 *
 * The scheme, host and port stay: they say where Steward connects, which an operator needs to
 * know and a host name alone does not open. The text is masked as written, not parsed and
 * rebuilt, so that what stays reads as the file has it (`${ENV}` references, percent-encoding),
 * and a URL the WHATWG parser would refuse is masked all the same.
 */

export const MASK = "**********";

/** `scheme://authority path ?query #fragment`; a scheme of two letters or more, so `C://` is no URL. */
const URL_SHAPE = /^([a-z][a-z0-9+.-]+:\/\/)([^/?#\s]*)([^?#\s]*)(\?[^#\s]*)?(#\S*)?$/i;

/** A value (or part) that is only an environment reference names where the secret is, not the secret. */
export const ENV_REFERENCE_ONLY = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

export interface MaskUrlOptions {
  /** The whole path is the secret (an uptime service's check URL): every segment is masked. */
  readonly secretPath?: boolean;
}

/** True for text that is one URL with an authority (`https://…`, `mqtts://…`, `sqs://…`). */
export function looksLikeUrl(text: string): boolean {
  return URL_SHAPE.test(text);
}

/** True for a path segment that reads as a key or an id rather than a word. */
export function looksLikeToken(segment: string): boolean {
  if (ENV_REFERENCE_ONLY.test(segment)) return false;
  if (segment.length >= 20) return true;
  return segment.length >= 8 && (/\d/.test(segment) || (/[a-z]/.test(segment) && /[A-Z]/.test(segment)));
}

function maskPath(path: string, secretPath: boolean): string {
  return path
    .split("/")
    .map((segment) => (segment !== "" && (secretPath || looksLikeToken(segment)) ? MASK : segment))
    .join("/");
}

function maskQuery(query: string): string {
  const pairs = query
    .slice(1)
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      if (equals === -1) return pair === "" ? pair : MASK;
      const value = pair.slice(equals + 1);
      return value === "" || ENV_REFERENCE_ONLY.test(value) ? pair : `${pair.slice(0, equals + 1)}${MASK}`;
    });
  return `?${pairs.join("&")}`;
}

/**
 * The URL with its credentials masked (see the header); text that is not one URL is masked
 * whole, since what it holds cannot be told apart.
 */
export function maskUrl(text: string, options: MaskUrlOptions = {}): string {
  const match = URL_SHAPE.exec(text);
  if (match === null) return text === "" ? text : MASK;
  const [, scheme = "", authority = "", path = "", query, fragment] = match;
  const at = authority.lastIndexOf("@");
  const host = at === -1 ? authority : `${MASK}@${authority.slice(at + 1)}`;
  return [
    scheme,
    host,
    maskPath(path, options.secretPath === true),
    query === undefined ? "" : maskQuery(query),
    fragment === undefined || fragment === "#" ? (fragment ?? "") : `#${MASK}`,
  ].join("");
}
