import { writeFileSync } from "node:fs";
import { endianness } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createProcNetUdpReader } from "../../../../local/agent/kernel-drop-reader.ts";
import { scratchDirectory } from "../../../helpers/per-test-environment.ts";
import { PROC_NET_UDP, PROC_NET_UDP6 } from "../../core/udp/proc-net-udp-samples.ts";

/** The two sample tables in files of a scratch directory. */
function tables() {
  const dir = scratchDirectory("steward-udp-tables-");
  const files = { ipv4: join(dir, "udp"), ipv6: join(dir, "udp6") };
  writeFileSync(files.ipv4, PROC_NET_UDP);
  writeFileSync(files.ipv6, PROC_NET_UDP6);
  return files;
}

describe.skipIf(endianness() !== "LE")("createProcNetUdpReader", () => {
  it("reads an IPv4 socket from the IPv4 table and an IPv6 socket from the IPv6 table", () => {
    const read = createProcNetUdpReader({ files: tables(), platform: "linux" });
    expect(read({ address: "127.0.0.1", port: 39997 })).toEqual({ drops: 94 });
    expect(read({ address: "::", port: 39995 })).toEqual({ drops: 94 });
  });

  it("reads each file once per turn of the event loop, however many listeners ask, and afresh after", async () => {
    // Prepare
    const files = tables();
    const read = createProcNetUdpReader({ files, platform: "linux" });
    const socket = { address: "127.0.0.1", port: 39997 };
    read(socket);

    // Act
    writeFileSync(files.ipv4, PROC_NET_UDP.replace("bbe3e494 94", "bbe3e494 99"));
    const sameTurn = read(socket);
    await new Promise((resolve) => setImmediate(resolve));
    const nextTurn = read(socket);

    // Assess
    expect(sameTurn).toEqual({ drops: 94 });
    expect(nextTurn).toEqual({ drops: 99 });
  });

  it("reads the table again, in the same turn, for a socket bound after it was read", () => {
    // Prepare: the first listener's read keeps a table without the second listener's row.
    const files = tables();
    const withoutSecond = PROC_NET_UDP.split("\n").filter((line) => !line.includes(" 0100007F:9C3D "));
    writeFileSync(files.ipv4, withoutSecond.join("\n"));
    const read = createProcNetUdpReader({ files, platform: "linux" });
    const first = read({ address: "127.0.0.2", port: 39997 });

    // Act: the second socket binds, its row appears, it asks in the same turn.
    writeFileSync(files.ipv4, PROC_NET_UDP);
    const second = read({ address: "127.0.0.1", port: 39997 });

    // Assess
    expect(first).toEqual({ drops: 0 });
    expect(second).toEqual({ drops: 94 });
  });

  it("says which file it cannot read and why, for a system without /proc", () => {
    const dir = scratchDirectory("steward-no-proc-");
    const read = createProcNetUdpReader({
      files: { ipv4: join(dir, "udp"), ipv6: join(dir, "udp6") },
      platform: "linux",
    });
    expect(read({ address: "127.0.0.1", port: 9997 })).toEqual({
      unavailable: `cannot read ${join(dir, "udp")} (ENOENT)`,
    });
    expect(read({ address: "::1", port: 9997 })).toEqual({
      unavailable: `cannot read ${join(dir, "udp6")} (ENOENT)`,
    });
  });

  it("says that the operating system reports no drops per socket where it is not Linux", () => {
    const read = createProcNetUdpReader({ files: tables(), platform: "win32" });
    expect(read({ address: "127.0.0.1", port: 39997 })).toEqual({
      unavailable: "the operating system (win32) does not report drops per socket",
      notOnThisPlatform: true,
    });
    expect(read.platformReports).toBe(false);
    expect(createProcNetUdpReader({ files: tables(), platform: "linux" }).platformReports).toBe(true);
  });
});
