import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openRecoveringKeyValueStore } from "../../../../../core/adapters/local/recovering-key-value-store.ts";
import { KeyValueStoreError } from "../../../../../core/kv/errors.ts";
import { StoreUnavailableError } from "../../../../../core/store-unavailable-error.ts";
import { until } from "../../../../helpers/eventually.ts";
import { createManualClock } from "../../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../../helpers/recording-logger.ts";
import { mountSmallDisk, smallDiskUnavailable } from "../../../../helpers/refusing-directory.ts";
import { suiteScratchDirectory } from "../../../../helpers/suite-scratch-directory.ts";

const scratch = suiteScratchDirectory("steward-recovering-kv-");

/** A store file below `<case>/data`, where a regular file stands instead of the directory. */
async function blockedStoreFile() {
  const base = scratch.fresh();
  await mkdir(base);
  const data = join(base, "data");
  await writeFile(data, "a regular file where the data directory should be\n");
  return { file: join(data, "key-values.json"), unblock: () => rm(data) };
}

const flush = async () => {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

describe("key-value store whose file cannot be opened at start", () => {
  it("refuses every call as unavailable (Retry-After 5 s) with one ERROR naming the file and the OS's reason", async () => {
    // Prepare
    const { file } = await blockedStoreFile();
    const clock = createManualClock();
    const logger = recordingLogger();
    const store = await openRecoveringKeyValueStore({ file, clock, logger, maxKeysPerNamespace: 10 });

    // Act
    const failures = await Promise.all([
      store.get("ns", "k").catch((error: unknown) => error),
      store.set("ns", "k", "v").catch((error: unknown) => error),
      store.deleteKey("ns", "k").catch((error: unknown) => error),
      store.deleteNamespace("ns").catch((error: unknown) => error),
      store.listKeys("ns").catch((error: unknown) => error),
      store.listNamespaces().catch((error: unknown) => error),
    ]);
    clock.advance(5000);
    await until(() => logger.at("debug").length === 1, 5000);
    clock.advance(5000);
    await until(() => logger.at("debug").length === 2, 5000);

    // Assess
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(StoreUnavailableError);
      expect(failure).toMatchObject({
        message: "Key-value store temporarily unavailable",
        retryAfterSeconds: 5,
      });
    }
    const errors = logger.at("error");
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toBe(
      "Key-value store cannot be opened; its endpoints answer 503 until it can",
    );
    expect(errors[0]?.fields).toMatchObject({ file, retryInMs: 5000 });
    expect(String(errors[0]?.fields?.error)).toContain("ENOTDIR");
    expect(String(errors[0]?.fields?.error)).not.toContain("ENOENT");
    expect(logger.at("debug").map((entry) => entry.message)).toEqual([
      "Key-value store still cannot be opened",
      "Key-value store still cannot be opened",
    ]);
    expect(store.availability()).toMatchObject({ state: "unavailable", file, refused: 6 });
    expect(store.availability().reason).toContain("ENOTDIR");
    await store.close();
  });

  it("opens by itself once the directory can be created, says so once at INFO, and then works", async () => {
    // Prepare
    const { file, unblock } = await blockedStoreFile();
    const clock = createManualClock();
    const logger = recordingLogger();
    const store = await openRecoveringKeyValueStore({ file, clock, logger, maxKeysPerNamespace: 10 });

    // Act
    await unblock();
    clock.advance(5000);
    await until(() => store.availability().state === "available", 5000);
    await store.set("ns", "k", "v");
    clock.advance(5000);
    await flush();
    const value = await store.get("ns", "k");
    await store.close();

    // Assess
    expect(value).toBe("v");
    expect(logger.at("info").map((entry) => entry.message)).toEqual([
      "Key-value store is open; its endpoints answer again",
    ]);
    expect(logger.at("info")[0]?.fields).toMatchObject({ file, closedForMs: 5000, failedAttempts: 1 });
    expect(store.availability()).toEqual({ state: "available", file });
    // What was acknowledged is on disk: the store closed by compacting it into the snapshot.
    expect(await readFile(file, "utf8")).toContain('"v"');
  });

  it("does not retry after stop: nothing is opened and no timer is left", async () => {
    // Prepare
    const { file, unblock } = await blockedStoreFile();
    const clock = createManualClock();
    const store = await openRecoveringKeyValueStore({
      file,
      clock,
      logger: recordingLogger(),
      maxKeysPerNamespace: 10,
    });

    // Act
    await store.close();
    await unblock();
    clock.advance(60_000);
    await flush();

    // Assess
    await expect(readFile(file)).rejects.toMatchObject({ code: "ENOENT" });
    await expect(store.get("ns", "k")).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it("still refuses to start on damaged content of its own, saying what to repair", async () => {
    // Prepare
    const base = scratch.fresh();
    await mkdir(base);
    const file = join(base, "key-values.json");
    await writeFile(file, "{ not json");
    const logger = recordingLogger();

    // Act
    const failure = await openRecoveringKeyValueStore({
      file,
      clock: createManualClock(),
      logger,
      maxKeysPerNamespace: 10,
    }).catch((error: unknown) => error);

    // Assess
    expect(failure).toBeInstanceOf(KeyValueStoreError);
    expect((failure as Error).message).toContain(`Cannot open key-value store ${file}: `);
    expect((failure as Error).message).toContain("damaged content: repair");
    expect(logger.at("error")).toEqual([]);
    // Moving the files aside, as the message says, lets it start empty.
    await rename(file, `${file}.damaged`);
    const store = await openRecoveringKeyValueStore({
      file,
      clock: createManualClock(),
      logger,
      maxKeysPerNamespace: 10,
    });
    expect(await store.listNamespaces()).toEqual([]);
    await store.close();
  });
});

describe("key-value store whose disk fills up while it runs", () => {
  it.skipIf(smallDiskUnavailable() !== undefined)(
    "answers the failed write and the next calls as unavailable, then opens again from its files",
    async () => {
      // Prepare: the store on a 1 MiB disk, one key written, then the disk filled.
      const disk = mountSmallDisk(scratch.fresh("disk"), 1024 * 1024);
      if (disk === undefined) throw new Error("mounting the small disk failed");
      try {
        const file = join(disk.path, "key-values.json");
        const clock = createManualClock();
        const logger = recordingLogger();
        const store = await openRecoveringKeyValueStore({ file, clock, logger, maxKeysPerNamespace: 10 });
        await store.set("ns", "before", "1");
        const filler = join(disk.path, "filler");
        await writeFile(filler, Buffer.alloc(2 * 1024 * 1024)).catch(() => undefined);

        // Act 1: a write the disk refuses, then a read.
        const failedWrite = await store
          .set("ns", "big", "x".repeat(200_000))
          .catch((error: unknown) => error);
        const failedRead = await store.get("ns", "before").catch((error: unknown) => error);
        const whileFailed = store.availability();

        // Assess 1
        expect(failedWrite).toBeInstanceOf(StoreUnavailableError);
        expect(failedRead).toBeInstanceOf(StoreUnavailableError);
        const errors = logger.at("error");
        expect(errors.map((entry) => entry.message)).toEqual([
          "Key-value store failed to write; it is opened again from its files and its endpoints answer 503 until then",
        ]);
        expect(String(errors[0]?.fields?.error)).toContain("ENOSPC");
        expect(whileFailed).toMatchObject({ state: "unavailable", file, refused: 1 });

        // Act 2: space again; the next attempt opens the store from its files.
        await rm(filler);
        clock.advance(5000);
        await until(() => store.availability().state === "available", 5000);
        const before = await store.get("ns", "before");
        const big = await store.get("ns", "big");
        await store.set("ns", "after", "2");
        const keys = await store.listKeys("ns");
        await store.close();

        // Assess 2: what was acknowledged is there, the refused write is not.
        expect(before).toBe("1");
        expect(big).toBeUndefined();
        expect(keys).toEqual(["after", "before"]);
        expect(logger.at("info").map((entry) => entry.message)).toEqual([
          "Key-value store is open; its endpoints answer again",
        ]);
      } finally {
        disk.release();
      }
    },
  );
});
