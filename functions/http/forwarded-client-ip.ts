/**
 * The client's address behind proxies the operator trusts (`trustedProxies`: addresses and CIDR
 * ranges). Behind a reverse proxy or load balancer every request comes from the proxy, so the
 * per-client rate limit would put every client in one budget and the logs and events would name
 * the proxy; the proxy says who the client was in `X-Forwarded-For`. Anyone can send that header,
 * so it is read only when the connection comes from a trusted proxy, and then from the right: each
 * proxy appends the address it received from, so the first address, going left, that is not a
 * trusted proxy is the client (a client's own entries stand further left and are never reached).
 * An entry that is not an address ends the walk at the trusted hop before it. Without
 * `trustedProxies` (the default) the connection's peer is the client, as before.
 */
import { BlockList, isIP } from "node:net";

/** The client's address from the connection's peer and the request's `X-Forwarded-For`. */
export type ClientAddress = (peer: string | undefined, forwardedFor: string | undefined) => string;

const familyOf = (address: string) => (isIP(address) === 6 ? "ipv6" : "ipv4");

/** An IPv4-mapped IPv6 peer (a dual-stack listener's) as its IPv4 address, for the list's IPv4 entries. */
const unmapped = (address: string) =>
  address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;

/** The address of one X-Forwarded-For entry (`1.2.3.4`, `1.2.3.4:5678`, `[2001:db8::1]:443`), or undefined. */
function addressOf(entry: string): string | undefined {
  let text = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed !== null) text = bracketed[1] as string;
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.indexOf(":"));
  return isIP(text) === 0 ? undefined : text;
}

export function createClientAddress(trustedProxies: readonly string[]): ClientAddress {
  if (trustedProxies.length === 0) return (peer) => peer ?? "unknown";
  const trusted = new BlockList();
  for (const entry of trustedProxies) {
    const [address = "", bits] = entry.split("/");
    if (bits === undefined) trusted.addAddress(address, familyOf(address));
    else trusted.addSubnet(address, Number(bits), familyOf(address));
  }
  const isTrusted = (address: string) => {
    const bare = unmapped(address);
    return isIP(bare) !== 0 && trusted.check(bare, familyOf(bare));
  };
  return function clientAddress(peer, forwardedFor) {
    let client = peer ?? "unknown";
    if (forwardedFor === undefined || !isTrusted(client)) return client;
    const hops = forwardedFor.split(",");
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = addressOf(hops[i] as string);
      if (hop === undefined) break;
      client = hop;
      if (!isTrusted(hop)) break;
    }
    return client;
  };
}
