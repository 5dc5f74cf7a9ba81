import { describe, expect, it } from "vitest";
import { procNetUdpDrops } from "../../../../core/udp/proc-net-udp.ts";
import { PROC_NET_UDP, PROC_NET_UDP6 } from "./proc-net-udp-samples.ts";

describe("procNetUdpDrops on Linux's own tables", () => {
  it.each([
    ["127.0.0.1", 39997, 94],
    ["127.0.0.2", 39997, 0],
    ["0.0.0.0", 39996, 34],
  ])("reads the drops of the IPv4 socket %s:%i from its own row", (address, port, drops) => {
    expect(procNetUdpDrops(PROC_NET_UDP, { address, port }, "LE")).toEqual({ drops });
  });

  it.each([
    ["::", 39995, 94],
    ["::1", 39997, 0],
    ["0:0:0:0:0:0:0:1", 39997, 0],
    ["::ffff:127.0.0.1", 39998, 0],
  ])("reads the drops of the IPv6 socket %s port %i from its own row", (address, port, drops) => {
    expect(procNetUdpDrops(PROC_NET_UDP6, { address, port }, "LE")).toEqual({ drops });
  });

  it("does not take the wildcard's row for a socket on one address of the same port", () => {
    expect(procNetUdpDrops(PROC_NET_UDP, { address: "127.0.0.1", port: 39996 }, "LE")).toEqual({
      unavailable: "no socket on 127.0.0.1 port 39996 in the kernel's UDP table",
    });
  });

  it("does not take an IPv4 row for an IPv6 socket, nor an IPv6 row for an IPv4 socket", () => {
    expect(procNetUdpDrops(PROC_NET_UDP, { address: "::ffff:127.0.0.1", port: 39997 }, "LE")).toHaveProperty(
      "unavailable",
    );
    expect(procNetUdpDrops(PROC_NET_UDP6, { address: "127.0.0.1", port: 39998 }, "LE")).toHaveProperty(
      "unavailable",
    );
  });

  it("reads the words in the host's byte order", () => {
    // The 127.0.0.1:39997 row as a big-endian host writes it.
    const bigEndian = PROC_NET_UDP.replace("0100007F:9C3D", "7F000001:9C3D");
    expect(procNetUdpDrops(bigEndian, { address: "127.0.0.1", port: 39997 }, "BE")).toEqual({ drops: 94 });
    expect(procNetUdpDrops(PROC_NET_UDP, { address: "1.0.0.127", port: 39997 }, "BE")).toEqual({ drops: 94 });
  });

  it("says why when the table has no drops column (older kernels)", () => {
    const old = PROC_NET_UDP.split("\n")
      .map((line) => line.trimEnd().replace(/ \S+$/, ""))
      .join("\n");
    expect(procNetUdpDrops(old, { address: "127.0.0.1", port: 39997 }, "LE")).toEqual({
      unavailable: "the kernel's UDP table has no drops column",
    });
  });

  it("says why for an empty or foreign text instead of answering 0", () => {
    expect(procNetUdpDrops("", { address: "127.0.0.1", port: 39997 }, "LE")).toHaveProperty("unavailable");
    expect(procNetUdpDrops("not a table\n1 2 3", { address: "127.0.0.1", port: 39997 }, "LE")).toHaveProperty(
      "unavailable",
    );
  });

  it("refuses to choose when two rows claim the socket", () => {
    const row = PROC_NET_UDP.split("\n")[4] ?? "";
    expect(procNetUdpDrops(`${PROC_NET_UDP}${row}\n`, { address: "127.0.0.1", port: 39997 }, "LE")).toEqual({
      unavailable: "2 sockets on 127.0.0.1 port 39997 in the kernel's UDP table",
    });
  });

  it("refuses a drops value that is not a count", () => {
    const garbled = PROC_NET_UDP.replace("bbe3e494 94", "bbe3e494 -1");
    expect(procNetUdpDrops(garbled, { address: "127.0.0.1", port: 39997 }, "LE")).toEqual({
      unavailable: 'unreadable drops value "-1"',
    });
  });
});
