/**
 * The local key-value store and its limits on disk: a store file already over its limits (written
 * before them, or under larger ones) opens, says so in one ERROR and refuses writes until deletes
 * get it under them; files larger than the store may read at start leave it closed (503) with
 * one ERROR instead of filling the heap, and it opens once they are moved aside; the log is
 * compacted once it holds `maxTotalBytes`, so the files read at start stay near the limit.
 */
import { rename, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openFileKeyValueStore } from "../../../../../core/adapters/local/file-key-value-store.ts";
import { openRecoveringKeyValueStore } from "../../../../../core/adapters/local/recovering-key-value-store.ts";
import { StoreLimitExceededError } from "../../../../../core/kv/errors.ts";
import { StoreUnavailableError } from "../../../../../core/store-unavailable-error.ts";
import { until } from "../../../../helpers/eventually.ts";
import { createManualClock } from "../../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../../helpers/recording-logger.ts";
import { suiteScratchDirectory } from "../../../../helpers/suite-scratch-directory.ts";

const scratch = suiteScratchDirectory("steward-kv-limits-");
const freshFile = () => join(scratch.fresh(), "data", "key-values.json");

/** A store file written under the default limits: `namespaces` namespaces of one key of `valueBytes` each. */
async function writtenStore(file: string, namespaces: number, valueBytes: number) {
  const clock = createManualClock();
  const store = await openFileKeyValueStore({ file, clock, maxKeysPerNamespace: 10 });
  for (let i = 0; i < namespaces; i += 1) await store.set(`ns${i}`, "key", "x".repeat(valueBytes));
  await store.close();
}

describe("a local key-value store over its limits at start", () => {
  it("opens with one ERROR saying why, answers reads and deletes, and refuses writes until it is under its limits", async () => {
    // Prepare
    const file = freshFile();
    await writtenStore(file, 3, 10);
    const logger = recordingLogger();

    // Act
    const store = await openRecoveringKeyValueStore({
      file,
      clock: createManualClock(),
      logger,
      maxKeysPerNamespace: 10,
      maxNamespaces: 2,
    });

    // Assess
    expect(logger.at("error")).toEqual([
      expect.objectContaining({
        message: expect.stringContaining("over its limits"),
        fields: { file, over: "3 namespaces, keyValueStore.maxNamespaces is 2" },
      }),
    ]);
    expect(store.availability().state).toBe("available");
    expect(await store.get("ns2", "key")).toBe("x".repeat(10));
    await expect(store.set("ns0", "key", "y")).rejects.toBeInstanceOf(StoreLimitExceededError);
    expect(await store.deleteNamespace("ns2")).toBe(true);
    await store.set("ns0", "key", "y");
    expect(await store.get("ns0", "key")).toBe("y");
    await store.close();
  });
});

describe("a local key-value store whose files are larger than it reads at start", () => {
  it("stays closed (503) with one ERROR naming the sizes, never reads them, and opens once they are moved aside", async () => {
    // Prepare: 1.2 MiB on disk; with maxTotalBytes 1000 the store reads at most 8 × 1000 bytes + 1 MiB.
    const file = freshFile();
    await writtenStore(file, 5, 250_000);
    const clock = createManualClock();
    const logger = recordingLogger();

    // Act
    const store = await openRecoveringKeyValueStore({
      file,
      clock,
      logger,
      maxKeysPerNamespace: 10,
      maxTotalBytes: 1000,
    });
    const refused = await store.get("ns0", "key").catch((error: unknown) => error);

    // Assess
    expect(refused).toBeInstanceOf(StoreUnavailableError);
    expect(logger.at("error")).toHaveLength(1);
    expect(String(logger.at("error")[0]?.fields?.error)).toMatch(
      /hold \d+ bytes, more than the 1056576 a store with keyValueStore.maxTotalBytes 1000 reads at start: move them aside/,
    );
    await rename(file, `${file}.aside`);
    clock.advance(5000);
    await until(() => store.availability().state === "available", 5000);
    expect(await store.listNamespaces()).toEqual([]);
    expect(logger.at("info").map((entry) => entry.message)).toContain(
      "Key-value store is open; its endpoints answer again",
    );
    await store.close();
  });
});

describe("the local key-value store's log", () => {
  it("is compacted once it holds maxTotalBytes (at least 1 MiB), so the files stay near the limit", async () => {
    // Prepare
    const file = freshFile();
    const store = await openFileKeyValueStore({
      file,
      clock: createManualClock(),
      maxKeysPerNamespace: 10,
      maxTotalBytes: 1024 * 1024,
    });

    // Act: 20 overwrites of one 200 KB value are 4 MB of log records
    for (let i = 0; i < 20; i += 1) await store.set("ns", "key", String(i % 10).repeat(200_000));

    // Assess
    expect((await stat(`${file}.wal`)).size).toBeLessThan(1024 * 1024);
    expect((await stat(file)).size).toBeLessThan(300_000);
    expect(await store.get("ns", "key")).toBe("9".repeat(200_000));
    await store.close();
  });
});
