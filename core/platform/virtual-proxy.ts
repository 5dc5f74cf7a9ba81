/**
 * A virtual proxy as configured (`userSessions.virtualProxies[].virtualProxy`: `/`, `/hdr` or
 * `hdr`) turned into the path prefix of the proxy API (`/qps<prefix>/session`): empty for the
 * root proxy, `/<name>` otherwise. A name with characters that do not belong in one path segment
 * is refused, so a configured value can never reach another path or add a query.
 */

/** The configured virtual proxy cannot be a path prefix. */
export class InvalidVirtualProxyError extends Error {
  override name = "InvalidVirtualProxyError";
}

// RFC 3986 unreserved characters: what a prefix can hold without encoding.
const SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** `""` for `/` (or empty), `/hdr` for `/hdr`, `hdr` or `/hdr/`. */
export function virtualProxyPrefix(virtualProxy: string): string {
  const name = virtualProxy.trim().replace(/^\/+/, "").replace(/\/+$/, "");
  if (name === "") return "";
  if (!SEGMENT.test(name) || name === "." || name === "..") {
    throw new InvalidVirtualProxyError(
      `virtual proxy ${JSON.stringify(virtualProxy)} is not a prefix: use "/" or one path segment of letters, digits, ".", "_", "~" or "-"`,
    );
  }
  return `/${name}`;
}
