/**
 * The HostResolver of source validation over the operating system's resolver (`getaddrinfo`
 * through `node:dns` `lookup`, so `/etc/hosts` and the platform's name services count, as they
 * do for every other connection the agent makes): every IPv4 and IPv6 address of a name.
 */
import { lookup } from "node:dns/promises";
import type { HostResolver } from "../../udp/index.ts";

export const dnsHostResolver: HostResolver = async (name) => {
  const addresses = await lookup(name, { all: true });
  return addresses.map((entry) => entry.address);
};
