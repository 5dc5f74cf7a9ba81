/**
 * Client IP under node:http: the socket peer, or, with `trustedProxies`, the client a trusted
 * proxy names in `X-Forwarded-For` (forwarded-client-ip.ts). `nodeClientIp` serves a Hono app on
 * @hono/node-server; `incomingClientIp` the ingest API's own front door.
 */

import type { IncomingMessage } from "node:http";
import type { HttpBindings } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { createClientAddress } from "./forwarded-client-ip.ts";
import type { ClientIpResolver } from "./problem.ts";

/** The socket peer (no proxy header is trusted). */
export function nodeClientIp(c: Context): string {
  return getConnInfo(c).remote.address ?? "unknown";
}

/** The one value of a header node:http may hand over as several lines. */
const joined = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(", ") : value);

/** The client of a node request, behind `trustedProxies` (none: the socket peer). */
export function incomingClientIp(trustedProxies: readonly string[]): (incoming: IncomingMessage) => string {
  if (trustedProxies.length === 0) return (incoming) => incoming.socket.remoteAddress ?? "unknown";
  const clientAddress = createClientAddress(trustedProxies);
  return (incoming) =>
    clientAddress(incoming.socket.remoteAddress, joined(incoming.headers["x-forwarded-for"]));
}

/** nodeClientIp behind `trustedProxies`. */
export function nodeClientIpBehind(trustedProxies: readonly string[]): ClientIpResolver {
  if (trustedProxies.length === 0) return nodeClientIp;
  const clientIp = incomingClientIp(trustedProxies);
  return (c) => clientIp((c.env as HttpBindings).incoming);
}
