import { appendFile, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openFileKeyValueStore } from "../../../../../core/adapters/local/file-key-value-store.ts";
import { KeyValueStoreError } from "../../../../../core/kv/errors.ts";
import { createSteppingClock } from "../../../../helpers/stepping-clock.ts";
import { suiteScratchDirectory } from "../../../../helpers/suite-scratch-directory.ts";

const scratch = suiteScratchDirectory("steward-kv-file-");
const freshFile = () => join(scratch.fresh(), "nested", "kv.json");

describe("file key-value store durability", () => {
  it("keeps every acknowledged write when the process dies without closing the store", async () => {
    // Prepare
    const file = freshFile();
    const clock = createSteppingClock();
    const crashed = await openFileKeyValueStore({ file, clock, maxKeysPerNamespace: 100 });
    // Act: acknowledged writes, then no close() (a crash)
    await Promise.all(Array.from({ length: 50 }, (_, i) => crashed.set("ns", `k${i}`, `v${i}`)));
    const reopened = await openFileKeyValueStore({ file, clock, maxKeysPerNamespace: 100 });
    // Assess
    expect((await reopened.listKeys("ns"))?.length).toBe(50);
    expect(await reopened.get("ns", "k49")).toBe("v49");
    await reopened.close();
  });

  it("drops a torn final log record and keeps appending cleanly after it", async () => {
    const file = freshFile();
    const clock = createSteppingClock();
    const first = await openFileKeyValueStore({ file, clock, maxKeysPerNamespace: 100 });
    await first.set("ns", "a", "1");
    await appendFile(`${file}.wal`, '{"op":"set","ns":"ns","key":"torn"'); // crash mid-write
    const second = await openFileKeyValueStore({ file, clock, maxKeysPerNamespace: 100 });
    await second.set("ns", "b", "2");
    const third = await openFileKeyValueStore({ file, clock, maxKeysPerNamespace: 100 });
    expect(await third.listKeys("ns")).toEqual(["a", "b"]);
    await third.close();
  });

  it("refuses to open a log corrupted before its last record", async () => {
    const file = freshFile();
    const clock = createSteppingClock();
    const store = await openFileKeyValueStore({ file, clock, maxKeysPerNamespace: 100 });
    await store.set("ns", "a", "1");
    await store.set("ns", "b", "2");
    const wal = await readFile(`${file}.wal`, "utf8");
    await writeFile(`${file}.wal`, `garbage\n${wal}`);
    await expect(openFileKeyValueStore({ file, clock, maxKeysPerNamespace: 100 })).rejects.toBeInstanceOf(
      KeyValueStoreError,
    );
  });

  it("compacts the log into the snapshot, purging expired keys, without losing state", async () => {
    const file = freshFile();
    const clock = createSteppingClock();
    const store = await openFileKeyValueStore({
      file,
      clock,
      maxKeysPerNamespace: 100,
      compactAfterRecords: 10,
    });
    await store.set("ns", "expiring", "x", 10);
    await clock.advance(10);
    for (let i = 0; i < 12; i++) await store.set("ns", `k${i % 4}`, `v${i}`);
    expect((await stat(`${file}.wal`)).size).toBeLessThan(200);
    const snapshot = await readFile(file, "utf8");
    expect(snapshot).not.toContain("expiring");
    const reopened = await openFileKeyValueStore({ file, clock, maxKeysPerNamespace: 100 });
    expect(await reopened.listKeys("ns")).toEqual(["k0", "k1", "k2", "k3"]);
    expect(await reopened.get("ns", "k3")).toBe("v11");
    await reopened.close();
    await store.close();
  });

  it("fails clearly when the store file's directory cannot be created", async () => {
    const blocker = scratch.fresh("blocker");
    await writeFile(blocker, "a file, not a directory");
    await expect(
      openFileKeyValueStore({
        file: join(blocker, "kv.json"),
        clock: createSteppingClock(),
        maxKeysPerNamespace: 1,
      }),
    ).rejects.toBeInstanceOf(KeyValueStoreError);
  });
});

describe("file key-value store that cannot be opened", () => {
  it("closes its log when opening fails after the log was opened, instead of leaving it to the garbage collector", async () => {
    // Prepare: a directory sync that fails, as Windows' fsync of a directory did (EPERM)
    const file = freshFile();
    const clock = createSteppingClock();
    const refusedSync = async () => {
      throw Object.assign(new Error("EPERM: operation not permitted, fsync"), {
        code: "EPERM",
        syscall: "fsync",
      });
    };
    const openFiles = async () => (await readdir("/proc/self/fd")).length;
    const before = await openFiles();

    // Act
    const opening = openFileKeyValueStore({
      file,
      clock,
      maxKeysPerNamespace: 100,
      syncDirectory: refusedSync,
    });

    // Assess
    await expect(opening).rejects.toThrow("Cannot open key-value store");
    await expect(opening).rejects.toThrow("EPERM: operation not permitted, fsync");
    expect(await openFiles()).toBe(before);
  });
});
