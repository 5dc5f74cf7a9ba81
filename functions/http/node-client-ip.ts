/** Client IP under @hono/node-server: the socket peer (no proxy headers are trusted). */

import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";

/**
 * Reads the peer address as @hono/node-server's getConnInfo does, without building its
 * `{remote: {address, port, addressType}}` object (this runs on every request).
 */
export function nodeClientIp(c: Context): string {
  const env = c.env as HttpBindings & { server?: HttpBindings };
  const bindings = env.server ?? env;
  return bindings.incoming.socket.remoteAddress ?? "unknown";
}
