/** Pure format predicates used by the schema (no node: imports; Lambda-safe). */

const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function isIPv4(s: string): boolean {
  return IPV4.test(s);
}

export function isIPv6(s: string): boolean {
  if (!s.includes(":") || !/^[0-9A-Fa-f:.]+$/.test(s)) return false;
  try {
    // The WHATWG URL parser implements the full IPv6 literal grammar.
    return new URL(`http://[${s}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

/** RFC 1123 host name, IPv4 literal, or IPv6 literal (optionally in brackets). */
export function isHost(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false;
  if (isIPv4(s)) return true;
  if (s.startsWith("[") && s.endsWith("]")) return isIPv6(s.slice(1, -1));
  if (isIPv6(s)) return true;
  const name = s.endsWith(".") ? s.slice(0, -1) : s;
  const labels = name.split(".");
  // A name made only of digits and dots is a malformed IPv4 address, not a host name.
  if (labels.every((l) => /^\d+$/.test(l))) return false;
  return labels.every((l) => LABEL.test(l));
}

/**
 * An address of this machine's loopback interface, or `localhost`: a listener bound there is
 * reached from this machine only.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  if (bare === "localhost" || (isIPv4(bare) && bare.startsWith("127."))) return true;
  // Any spelling of ::1 (0:0:0:0:0:0:0:1), as the URL parser writes it.
  return isIPv6(bare) && new URL(`http://[${bare}]/`).hostname === "[::1]";
}

/** An IPv4 or IPv6 address, or a range of them in CIDR form (`10.0.0.0/8`, `fd00::/8`). */
export function isIpOrCidr(s: string): boolean {
  const slash = s.indexOf("/");
  const address = slash === -1 ? s : s.slice(0, slash);
  const bits = slash === -1 ? undefined : s.slice(slash + 1);
  const max = isIPv4(address) ? 32 : isIPv6(address) ? 128 : undefined;
  if (max === undefined) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max);
}

export function isPortNumber(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= 65535;
}

/** `host` or `host:port`; IPv6 needs brackets when a port is given. */
export function isHostPort(s: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(s);
  if (bracketed) {
    return isIPv6(bracketed[1] ?? "") && (bracketed[2] === undefined || isPortNumber(Number(bracketed[2])));
  }
  const idx = s.lastIndexOf(":");
  if (idx === -1) return isHost(s);
  if (s.indexOf(":") !== idx) return isIPv6(s);
  const portText = s.slice(idx + 1);
  return isHost(s.slice(0, idx)) && /^\d+$/.test(portText) && isPortNumber(Number(portText));
}

function parseHttpUrl(s: string): URL | undefined {
  try {
    const url = new URL(s);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0
      ? url
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An http(s) URL with a host and without a user name or password: Node's `fetch`, which makes
 * Steward's heartbeat, chat, alert and observability requests, refuses a URL with credentials
 * ("Request cannot be constructed from a URL that includes credentials"), and such a URL shows
 * its password to whoever reads it. Credentials go in a header setting instead.
 */
export function isHttpUrl(s: string): boolean {
  const url = parseHttpUrl(s);
  return url !== undefined && !hasCredentials(url);
}

/**
 * An http(s) URL with a host, credentials allowed: for the operator's own webhooks, which are
 * called through `node:http` and send `user:pass@` as Basic authentication, as Butler did.
 */
export function isHttpUrlAllowingCredentials(s: string): boolean {
  return parseHttpUrl(s) !== undefined;
}

/** True when the text is an http(s) URL holding a user name or a password. */
export function hasUrlCredentials(s: string): boolean {
  const url = parseHttpUrl(s);
  return url !== undefined && hasCredentials(url);
}

const hasCredentials = (url: URL) => url.username !== "" || url.password !== "";

export function isRetentionDuration(s: string): boolean {
  return s === "0" || s === "INF" || /^(?:\d+(?:ns|us|\u00b5s|ms|s|m|h|d|w))+$/.test(s);
}

/** A browser origin (`https://host[:port]`, no path) or `*`. */
export function isOrigin(s: string): boolean {
  if (s === "*") return true;
  if (!isHttpUrl(s)) return false;
  const url = new URL(s);
  return url.origin === s.replace(/\/$/, "");
}
