/**
 * What Steward writes to hold user data is readable by its own user only, under the usual umask
 * (022, which leaves new files 0644 and directories 0755): the key-value store and its log, the
 * schedule store, the durable audit queue's segments, cursors and manifest and its directories
 * (0600 files, 0700 directories). The audit exports, which other programs read, keep the umask, and
 * so does a shared directory a store file sits in.
 */
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDirectoryObjectStore } from "../../../../../core/adapters/local/directory-object-store.ts";
import { openFileKeyValueStore } from "../../../../../core/adapters/local/file-key-value-store.ts";
import { openYamlScheduleStore } from "../../../../../core/adapters/local/yaml-schedule-store.ts";
import { sampleSchedule } from "../../../../contracts/schedule-store.contract.ts";
import { numberedEvent, startDurableQueue } from "../../../../helpers/durable-queue-harness.ts";
import { createSteppingClock } from "../../../../helpers/stepping-clock.ts";
import { suiteScratchDirectory } from "../../../../helpers/suite-scratch-directory.ts";

const scratch = suiteScratchDirectory("steward-private-files-");
const modeOf = (path: string) => statSync(path).mode & 0o777;

let umaskBefore: number;
beforeAll(() => {
  umaskBefore = process.umask(0o022);
});
afterAll(() => {
  process.umask(umaskBefore);
});

describe("files holding user data", () => {
  it("the key-value store writes its snapshot and its log 0600, and leaves a shared directory as it is", async () => {
    const data = join(scratch.fresh(), "data");
    const file = join(data, "key-values.json");
    const store = await openFileKeyValueStore({
      file,
      clock: createSteppingClock(),
      maxKeysPerNamespace: 100,
      compactAfterRecords: 2,
    });

    for (let i = 0; i < 3; i++) await store.set("users", `u${i}`, "LAB\\someone");
    await store.close();

    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(`${file}.wal`)).toBe(0o600);
    expect(modeOf(data)).toBe(0o755);
  });

  it("a store file replaced over a stale temporary file of another mode is 0600 all the same", async () => {
    const data = scratch.fresh();
    mkdirSync(data, { recursive: true });
    const file = join(data, "schedules.yaml");
    writeFileSync(`${file}.tmp`, "left by a crash", { mode: 0o644 });
    const store = await openYamlScheduleStore({ file });

    await store.put(sampleSchedule());
    await store.close();

    expect(modeOf(file)).toBe(0o600);
  });

  it("the durable audit queue writes its segments, cursors and manifest 0600 in 0700 directories", async () => {
    const parent = scratch.fresh();
    const directory = join(parent, "data", "audit-queue");
    const { queue, delivered, shutdown } = await startDurableQueue(directory, {
      maxDiskBytes: 1024 * 1024,
      segmentBytes: 64 * 1024,
    });

    for (let n = 1; n <= 3; n++) await queue.enqueue(numberedEvent(n, "x".repeat(40_000)));
    await queue.drain();
    queue.written("json", delivered.json ?? []);
    await shutdown();

    const names = await readdir(directory, { recursive: true });
    const files = names.filter((name) => !statSync(join(directory, name)).isDirectory());
    expect(files.filter((name) => name.endsWith(".log")).length).toBeGreaterThan(1);
    expect(files).toContain("destinations.json");
    expect(files.some((name) => name.startsWith("cursors"))).toBe(true);
    expect(Object.fromEntries(files.map((name) => [name, modeOf(join(directory, name))]))).toEqual(
      Object.fromEntries(files.map((name) => [name, 0o600])),
    );
    expect(modeOf(directory)).toBe(0o700);
    expect(modeOf(join(directory, "cursors"))).toBe(0o700);
    expect(modeOf(join(parent, "data"))).toBe(0o755);
  });
});

describe("files other programs read", () => {
  it("audit exports keep the umask, so Qlik apps running as another account can read them", async () => {
    const root = join(scratch.fresh(), "exports");
    mkdirSync(root, { recursive: true });
    const exports = createDirectoryObjectStore(root);

    await exports.put("2026/01/01/events.parquet", "PAR1");

    expect(modeOf(join(root, "2026", "01", "01", "events.parquet"))).toBe(0o644);
    expect(modeOf(join(root, "2026"))).toBe(0o755);
  });
});
