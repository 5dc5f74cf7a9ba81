/**
 * What Linux says about a UDP socket on 127.0.0.1, read straight from /proc/net/udp for tests
 * that compare it with Steward's own account (written apart from Steward's parser, so that the
 * comparison does not trust the code under test). Without the table (not Linux): tests skip
 * loudly outside CI and fail in CI.
 */
import { existsSync, readFileSync } from "node:fs";
import { endianness } from "node:os";

export const PROC_NET_UDP = "/proc/net/udp";

/** Call at module level of a test file; returns true when the tests must be skipped. */
export function skipWithoutProcNetUdp(): boolean {
  if (existsSync(PROC_NET_UDP)) return false;
  if (process.env.CI === "true") throw new Error(`${PROC_NET_UDP} is required in CI (a Linux kernel)`);
  console.warn(`\n*** ${PROC_NET_UDP} missing (not Linux): kernel drop tests SKIPPED ***\n`);
  return true;
}

/** The columns of the row of 127.0.0.1:`port`; throws when there is no such row. */
function rowOf127(port: number): string[] {
  // The address as one 32-bit number in the host's byte order, then the port in four hex digits.
  const address = endianness() === "LE" ? "0100007F" : "7F000001";
  const local = `${address}:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  const row = readFileSync(PROC_NET_UDP, "utf8")
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .find((columns) => columns[1] === local);
  if (row === undefined) throw new Error(`no row for 127.0.0.1:${port} in ${PROC_NET_UDP}`);
  return row;
}

/** The `drops` column of the socket on 127.0.0.1:`port`. */
export function kernelDropsOn127(port: number): number {
  return Number(rowOf127(port).at(-1));
}

/** Bytes of datagrams the socket on 127.0.0.1:`port` holds that its process has not read yet. */
export function kernelQueuedBytesOn127(port: number): number {
  return Number.parseInt(rowOf127(port)[4]?.split(":")[1] ?? "", 16);
}
