/**
 * The kernel's count of datagrams it dropped for one UDP socket, read from the text of Linux's
 * `/proc/net/udp` (IPv4 sockets) or `/proc/net/udp6` (IPv6 sockets). When a burst outruns the
 * socket's receive buffer the kernel discards datagrams before the process sees them; the table's
 * last column, `drops`, is the only trace of that loss.
 *
 * A row is found by its local address and port (`0100007F:270D`): the port is hex, the address hex
 * per 32-bit word in the host's byte order. Node offers no inode for a dgram socket, so address and
 * port are the key; a port is bound once per address (no `reuseAddr`), and the wildcard addresses
 * (`0.0.0.0`, `::`) are rows of their own, so an exact match is this socket's row. Anything else
 * (no drops column, no such row, several rows) is an answer saying why there is no number: a
 * guessed 0 would hide the loss this exists to show.
 */
import { canonicalAddress } from "./udp-sender.ts";

/** A bound UDP socket as node:dgram reports it. */
export interface UdpSocketAddress {
  readonly address: string;
  readonly port: number;
}

/**
 * The kernel's cumulative drop counter of the socket, or why it cannot be had; `notOnThisPlatform`
 * when the operating system keeps no such counter at all (anything but Linux), not a passing failure.
 */
export type KernelDropsReading =
  | { readonly drops: number }
  | { readonly unavailable: string; readonly notOnThisPlatform?: true };

export type ByteOrder = "LE" | "BE";

/** The address of a row's hex field (8 digits IPv4, 32 digits IPv6), as text; undefined if neither. */
function rowAddress(hex: string, byteOrder: ByteOrder): { family: 4 | 6; text: string } | undefined {
  if ((hex.length !== 8 && hex.length !== 32) || !/^[0-9A-Fa-f]+$/.test(hex)) return undefined;
  const bytes: number[] = [];
  for (let word = 0; word < hex.length; word += 8) {
    const wordBytes = [0, 2, 4, 6].map((at) => Number.parseInt(hex.slice(word + at, word + at + 2), 16));
    // The kernel prints each 32-bit word as a number: on a little-endian host its bytes come reversed.
    bytes.push(...(byteOrder === "LE" ? wordBytes.reverse() : wordBytes));
  }
  if (bytes.length === 4) return { family: 4, text: bytes.join(".") };
  const groups: string[] = [];
  for (let at = 0; at < 16; at += 2)
    groups.push((((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0)).toString(16));
  return { family: 6, text: canonicalAddress(groups.join(":")) };
}

/**
 * The `drops` value of `socket`'s row in `text` (the whole content of /proc/net/udp or udp6).
 * `byteOrder` is the host's (`os.endianness()`).
 */
export function procNetUdpDrops(
  text: string,
  socket: UdpSocketAddress,
  byteOrder: ByteOrder,
): KernelDropsReading {
  const lines = text.split("\n");
  const header = (lines[0] ?? "").trim().split(/\s+/);
  if (header[0] !== "sl" || header.at(-1) !== "drops") {
    return { unavailable: "the kernel's UDP table has no drops column" };
  }
  const family = socket.address.includes(":") ? 6 : 4;
  const wanted = canonicalAddress(socket.address);
  const drops: string[] = [];
  for (const line of lines.slice(1)) {
    const columns = line.trim().split(/\s+/);
    const [hexAddress, hexPort] = (columns[1] ?? "").split(":");
    if (hexAddress === undefined || hexPort === undefined) continue;
    if (Number.parseInt(hexPort, 16) !== socket.port) continue;
    const local = rowAddress(hexAddress, byteOrder);
    if (local?.family === family && local.text === wanted) drops.push(columns.at(-1) ?? "");
  }
  const where = `${socket.address} port ${socket.port}`;
  if (drops.length === 0) return { unavailable: `no socket on ${where} in the kernel's UDP table` };
  if (drops.length > 1)
    return { unavailable: `${drops.length} sockets on ${where} in the kernel's UDP table` };
  const value = drops[0] ?? "";
  if (!/^\d+$/.test(value)) return { unavailable: `unreadable drops value "${value.slice(0, 20)}"` };
  return { drops: Number(value) };
}
