/**
 * Who sent a datagram, and the one spelling of an address that source validation compares.
 * Sockets report IPv4 senders of a dual-stack socket as IPv4-mapped IPv6 (`::ffff:10.0.0.5`)
 * and DNS or a configuration file may spell one IPv6 address several ways, so both sides are
 * brought to a canonical form: IPv4 dotted quad; IPv6 lower-case, compressed, without a zone.
 */

/** The sender of a datagram, as `node:dgram` reports it (`rinfo` can be passed as is). */
export interface UdpSender {
  readonly address: string;
  readonly port: number;
}

const MAPPED_DOTTED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/;
const MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * The canonical spelling of an IP address (IPv4-mapped IPv6 becomes IPv4). Anything that is not
 * an IPv6 literal is returned unchanged, so IPv4 senders cost nothing.
 */
export function canonicalAddress(address: string): string {
  if (!address.includes(":")) return address;
  let text = address.toLowerCase();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  const zone = text.indexOf("%");
  if (zone !== -1) text = text.slice(0, zone);
  const dotted = MAPPED_DOTTED.exec(text);
  if (dotted !== null) return dotted[1] ?? text;
  let canonical: string;
  try {
    // The WHATWG URL parser implements the IPv6 grammar and serialises the compressed form.
    canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return text;
  }
  const hex = MAPPED_HEX.exec(canonical);
  if (hex === null) return canonical;
  const high = Number.parseInt(hex[1] ?? "0", 16);
  const low = Number.parseInt(hex[2] ?? "0", 16);
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}
