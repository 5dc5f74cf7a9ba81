/**
 * The rate-limit key of a client IP: IPv4 as is, IPv4-mapped IPv6 as its IPv4 address, other IPv6
 * addresses grouped by their /64 prefix (one household or host usually owns a whole /64, so
 * per-address keys would be trivially evaded). Anything unparsable is keyed by its trimmed
 * lower-case text.
 */

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function isIpv4(text: string): boolean {
  const m = IPV4.exec(text);
  return m?.slice(1).every((part) => Number(part) <= 255) === true;
}

/** The eight 16-bit groups of an IPv6 address, or undefined when `text` is not one. */
function ipv6Groups(text: string): number[] | undefined {
  let address = text;
  // An embedded IPv4 tail (::ffff:1.2.3.4) stands for the last two groups: rewrite it as hex.
  const lastColon = address.lastIndexOf(":");
  const tail = address.slice(lastColon + 1);
  if (tail.includes(".")) {
    if (!isIpv4(tail)) return undefined;
    const [a, b, c, d] = tail.split(".").map(Number) as [number, number, number, number];
    address = `${address.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = address.split("::");
  if (halves.length > 2) return undefined;
  const head = parseGroups(halves[0]);
  const rest = parseGroups(halves[1]);
  if (head === undefined || rest === undefined) return undefined;
  const explicit = head.length + rest.length;
  if (halves.length === 1) return explicit === 8 ? head : undefined;
  if (explicit > 7) return undefined;
  return [...head, ...new Array<number>(8 - explicit).fill(0), ...rest];
}

function parseGroups(part: string | undefined): number[] | undefined {
  if (part === undefined || part === "") return [];
  const groups: number[] = [];
  for (const group of part.split(":")) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return undefined;
    groups.push(Number.parseInt(group, 16));
  }
  return groups;
}

export function clientKeyOf(ip: string): string {
  const text = ip.trim().toLowerCase();
  if (isIpv4(text)) return text;
  // Drop a zone index (fe80::1%eth0) and brackets ([::1]).
  const bare = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const groups = ipv6Groups(bare);
  if (groups === undefined) return text;
  const isV4Mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (isV4Mapped) {
    const hi = groups[6] ?? 0;
    const lo = groups[7] ?? 0;
    return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}
