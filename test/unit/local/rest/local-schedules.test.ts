import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMemoryScheduleLease } from "../../../../core/adapters/local/memory-schedule-lease.ts";
import { openYamlScheduleStore } from "../../../../core/adapters/local/yaml-schedule-store.ts";
import type { Schedule, TaskStarter } from "../../../../core/ports.ts";
import { ScheduleStoreError } from "../../../../core/schedules/errors.ts";
import { StoreUnavailableError } from "../../../../core/store-unavailable-error.ts";
import { openLocalSchedules } from "../../../../local/rest/local-schedules.ts";
import { until } from "../../../helpers/eventually.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { mountSmallDisk, smallDiskUnavailable } from "../../../helpers/refusing-directory.ts";
import { suiteScratchDirectory } from "../../../helpers/suite-scratch-directory.ts";

const TASK = "e3b27f50-b1c0-4d51-a5e5-a4c7c7c9d4a1";
const scratch = suiteScratchDirectory("steward-local-schedules-");

const schedule: Schedule = {
  id: "00000000-0000-4000-8000-000000000001",
  created: "2025-12-31T00:00:00.000Z",
  name: "every 20 s",
  cronSchedule: "*/20 * * * * *",
  timezone: "UTC",
  platformTaskId: TASK,
  startupState: "started",
  tags: [],
  lastKnownState: "started",
};

/**
 * `<case>/data/schedules.yaml` holding one started schedule, kept in `<case>/aside` while a
 * regular file stands where `<case>/data` should be; `unblock()` puts the directory in place.
 */
async function blockedSchedules() {
  const base = scratch.fresh();
  const aside = join(base, "aside");
  const seeded = await openYamlScheduleStore({ file: join(aside, "schedules.yaml") });
  await seeded.put(schedule);
  await seeded.close();
  const data = join(base, "data");
  await writeFile(data, "a regular file where the data directory should be\n");
  return {
    file: join(data, "schedules.yaml"),
    async unblock() {
      await rm(data);
      await rename(aside, data);
    },
  };
}

function setUp(file: string) {
  const clock = createManualClock(Date.UTC(2026, 0, 1));
  const logger = recordingLogger();
  const starts: string[] = [];
  const taskStarter: TaskStarter = {
    async startTask(taskId) {
      starts.push(`${taskId}@${new Date(clock.now()).toISOString()}`);
    },
  };
  const open = () =>
    openLocalSchedules({
      file,
      clock,
      logger,
      scheduler: { clock, logger, taskStarter, lease: createMemoryScheduleLease({ owner: "test" }) },
    });
  return { clock, logger, starts, open };
}

describe("local schedules whose store cannot be opened at start", () => {
  it("run nothing and refuse as unavailable, with one ERROR naming the file and the OS's reason", async () => {
    // Prepare
    const { file } = await blockedSchedules();
    const { clock, logger, starts, open } = setUp(file);
    const schedules = await open();

    // Act
    const failures = await Promise.all([
      schedules.store.list().catch((error: unknown) => error),
      schedules.store.get(schedule.id).catch((error: unknown) => error),
      schedules.store.put(schedule).catch((error: unknown) => error),
      schedules.store.delete(schedule.id).catch((error: unknown) => error),
      Promise.resolve()
        .then(() => schedules.runner?.status())
        .catch((error: unknown) => error),
    ]);
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      clock.advance(5000);
      await until(() => logger.at("debug").length === attempt, 5000);
    }

    // Assess
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(StoreUnavailableError);
      expect(failure).toMatchObject({
        message: "Schedule store temporarily unavailable",
        retryAfterSeconds: 5,
      });
    }
    expect(starts).toEqual([]);
    const errors = logger.at("error");
    expect(errors.map((entry) => entry.message)).toEqual([
      "Schedule store cannot be opened; no schedule runs and its endpoints answer 503 until it can",
    ]);
    expect(errors[0]?.fields).toMatchObject({ file });
    expect(String(errors[0]?.fields?.error)).toContain("ENOTDIR");
    expect(logger.at("info").map((entry) => entry.message)).not.toContain("Scheduler started");
    expect(schedules.availability?.()).toMatchObject({ state: "unavailable", file, refused: 5 });
    await schedules.stop();
  });

  it("open by itself once the directory is usable, then run the stored schedules as at start", async () => {
    // Prepare
    const { file, unblock } = await blockedSchedules();
    const { clock, logger, starts, open } = setUp(file);
    const schedules = await open();

    // Act
    await unblock();
    clock.advance(5000); // 00:00:05: the retry opens the store and starts the scheduler
    await until(() => schedules.availability?.().state === "available", 5000);
    const listed = await schedules.store.list();
    clock.advance(20_000); // 00:00:25: fired at 00:00:20
    await until(() => starts.length === 1, 5000);
    clock.advance(20_000); // 00:00:45: fired at 00:00:40
    await until(() => starts.length === 2, 5000);
    const jobs = schedules.runner?.status();
    await schedules.stop();

    // Assess
    expect(listed.map((entry) => entry.id)).toEqual([schedule.id]);
    expect(starts).toEqual([`${TASK}@2026-01-01T00:00:25.000Z`, `${TASK}@2026-01-01T00:00:45.000Z`]);
    expect(
      logger
        .at("info")
        .filter((entry) => entry.message === "Schedule fired, starting platform task")
        .map((entry) => entry.fields?.due),
    ).toEqual(["2026-01-01T00:00:20.000Z", "2026-01-01T00:00:40.000Z"]);
    expect(logger.at("info").map((entry) => entry.message)).toEqual([
      "Scheduler started",
      "Schedule store is open; its schedules run and its endpoints answer again",
      "Schedule fired, starting platform task",
      "Schedule fired, starting platform task",
      "Scheduler stopped",
    ]);
    expect(jobs).toMatchObject([{ id: schedule.id, running: true, next: Date.UTC(2026, 0, 1, 0, 1, 0) }]);
  });

  it("still refuse to start on a damaged file, saying what to repair", async () => {
    // Prepare
    const base = scratch.fresh();
    await mkdir(base);
    const file = join(base, "schedules.yaml");
    await writeFile(file, "schedules: [unclosed\n");
    const { open, logger } = setUp(file);

    // Act
    const failure = await open().catch((error: unknown) => error);

    // Assess
    expect(failure).toBeInstanceOf(ScheduleStoreError);
    expect((failure as Error).message).toContain(`Cannot open schedule store ${file}: `);
    expect((failure as Error).message).toContain("damaged content: repair the file");
    expect(logger.at("error")).toEqual([]);
  });
});

describe("local schedules whose disk fills up while they run", () => {
  it.skipIf(smallDiskUnavailable() !== undefined)(
    "refuse a change the disk refuses as unavailable, without making it, and take it once there is space",
    async () => {
      // Prepare: the store on a 1 MiB disk, then the disk filled.
      const disk = mountSmallDisk(scratch.fresh("disk"), 1024 * 1024);
      if (disk === undefined) throw new Error("mounting the small disk failed");
      try {
        const { open, logger } = setUp(join(disk.path, "schedules.yaml"));
        const schedules = await open();
        const filler = join(disk.path, "filler");
        await writeFile(filler, Buffer.alloc(2 * 1024 * 1024)).catch(() => undefined);

        // Act 1
        const failure = await schedules.store.put(schedule).catch((error: unknown) => error);
        const listedWhileFull = await schedules.store.list();

        // Assess 1
        expect(failure).toBeInstanceOf(StoreUnavailableError);
        expect(listedWhileFull).toEqual([]);
        const errors = logger.at("error");
        expect(errors.map((entry) => entry.message)).toEqual([
          "Schedule store failed to write; the change is not made",
        ]);
        expect(String(errors[0]?.fields?.error)).toContain("ENOSPC");

        // Act 2
        await rm(filler);
        await schedules.store.put(schedule);
        const listed = await schedules.store.list();
        await schedules.stop();

        // Assess 2
        expect(listed.map((entry) => entry.id)).toEqual([schedule.id]);
      } finally {
        disk.release();
      }
    },
  );
});
