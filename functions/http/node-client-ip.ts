/** Client IP under @hono/node-server: the socket peer (no proxy headers are trusted). */

import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

export function nodeClientIp(c: Context): string {
  return getConnInfo(c).remote.address ?? "unknown";
}
