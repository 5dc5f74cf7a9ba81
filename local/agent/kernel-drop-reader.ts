/**
 * Reads the kernel's per-socket drop counter for the UDP listeners: on Linux `/proc/net/udp`
 * (IPv4 sockets) and `/proc/net/udp6` (IPv6 sockets), parsed by core/udp/proc-net-udp.ts. One
 * reader serves every listener and keeps a file's text until the current turn of the event loop
 * ends, so a scrape or a status document that asks for several listeners costs one read of each
 * file, and the next question (a later scrape, the last count on stop) sees the kernel's counter
 * as it is then. A socket bound after the kept text was read (the second listener, bound in the
 * same turn as the first) has no row in it: the file is then read again before the answer says
 * so. A read takes well under a millisecond; it is synchronous because scrapes and the status
 * document are. Elsewhere, or when the file cannot be read, the answer says why instead of giving
 * a number; elsewhere (Windows: no API gives a socket's drops to a program) it also says that the
 * platform has no such count, and the reader's `platformReports` is false.
 */
import { readFileSync } from "node:fs";
import { endianness } from "node:os";
import { type KernelDropsReading, procNetUdpDrops, type UdpSocketAddress } from "../../core/udp/index.ts";

/** The kernel's drop counter of one bound socket; `platformReports`: whether this OS keeps one. */
export type KernelDropReader = ((socket: UdpSocketAddress) => KernelDropsReading) & {
  readonly platformReports: boolean;
};

export interface ProcNetUdpReaderOptions {
  /** The tables to read; Linux's by default (a test points them elsewhere). */
  files?: { readonly ipv4: string; readonly ipv6: string };
  /** `process.platform` by default; only Linux has the tables. */
  platform?: NodeJS.Platform;
}

export const LINUX_UDP_TABLES = { ipv4: "/proc/net/udp", ipv6: "/proc/net/udp6" } as const;

type FileText = { text: string } | { unavailable: string };

export function createProcNetUdpReader(options: ProcNetUdpReaderOptions = {}): KernelDropReader {
  const files = options.files ?? LINUX_UDP_TABLES;
  const platform = options.platform ?? process.platform;
  const byteOrder = endianness();
  const cache = new Map<string, FileText>();

  function read(file: string): FileText {
    if (cache.size === 0) setImmediate(() => cache.clear());
    let content: FileText;
    try {
      content = { text: readFileSync(file, "utf8") };
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? String(error);
      content = { unavailable: `cannot read ${file} (${reason})` };
    }
    cache.set(file, content);
    return content;
  }

  const platformReports = platform === "linux";
  const reader = (socket: UdpSocketAddress): KernelDropsReading => {
    if (!platformReports) {
      return {
        unavailable: `the operating system (${platform}) does not report drops per socket`,
        notOnThisPlatform: true,
      };
    }
    const file = socket.address.includes(":") ? files.ipv6 : files.ipv4;
    const kept = cache.get(file);
    if (kept !== undefined) {
      if ("unavailable" in kept) return kept;
      const reading = procNetUdpDrops(kept.text, socket, byteOrder);
      if ("drops" in reading) return reading;
    }
    const content = read(file);
    if ("unavailable" in content) return content;
    return procNetUdpDrops(content.text, socket, byteOrder);
  };
  return Object.assign(reader, { platformReports });
}
