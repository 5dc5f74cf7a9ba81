import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMemoryScheduleLease } from "../../../../core/adapters/local/memory-schedule-lease.ts";
import { openYamlScheduleStore } from "../../../../core/adapters/local/yaml-schedule-store.ts";
import type { Schedule, ScheduleLease, ScheduleStore } from "../../../../core/ports.ts";
import { startScheduler } from "../../../../core/schedules/scheduler.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { createSteppingClock, type SteppingClock } from "../../../helpers/stepping-clock.ts";
import { suiteScratchDirectory } from "../../../helpers/suite-scratch-directory.ts";

const SCHEDULE: Schedule = {
  id: "00000000-0000-4000-8000-000000000001",
  created: "2026-01-01T00:00:00.000Z",
  name: "every 20 s",
  cronSchedule: "*/20 * * * * *",
  timezone: "UTC",
  platformTaskId: "e3b27f50-b1c0-4d51-a5e5-a4c7c7c9d4a1",
  startupState: "started",
  tags: [],
  lastKnownState: "started",
};

const scratch = suiteScratchDirectory("steward-scheduler-lease-");

async function storeWithSchedule(): Promise<ScheduleStore> {
  const store = await openYamlScheduleStore({ file: join(scratch.fresh(), "schedules.yaml") });
  await store.put(SCHEDULE);
  return store;
}

async function agent(store: ScheduleStore, clock: SteppingClock, lease: ScheduleLease) {
  const starts: string[] = [];
  const logger = recordingLogger();
  const scheduler = await startScheduler({
    store,
    clock,
    logger,
    lease,
    taskStarter: {
      async startTask() {
        starts.push(new Date(clock.now()).toISOString());
      },
    },
  });
  return { starts, logger, scheduler };
}

describe("scheduler with a schedule lease", () => {
  it("starts each occurrence once when two schedulers fire the same stored schedule", async () => {
    const clock = createSteppingClock(Date.UTC(2026, 0, 1));
    const store = await storeWithSchedule();
    const claims = new Map<string, { owner: string; dueMs: number }>();
    const a = await agent(store, clock, createMemoryScheduleLease({ owner: "a", claims }));
    const b = await agent(store, clock, createMemoryScheduleLease({ owner: "b", claims }));

    await clock.advance(61_000);

    expect([...a.starts, ...b.starts].sort()).toEqual([
      "2026-01-01T00:00:20.000Z",
      "2026-01-01T00:00:40.000Z",
      "2026-01-01T00:01:00.000Z",
    ]);
    const refused = [...a.logger.entries, ...b.logger.entries].filter((entry) =>
      entry.message.startsWith("Schedule occurrence started by another instance"),
    );
    expect(refused).toHaveLength(3);
    await a.scheduler.stop();
    await b.scheduler.stop();
  });

  it("starts nothing and logs an error when the claim cannot be settled", async () => {
    const clock = createSteppingClock(Date.UTC(2026, 0, 1));
    const failing: ScheduleLease = {
      claim: async () => {
        throw new Error("table unreachable");
      },
    };
    const { starts, logger, scheduler } = await agent(await storeWithSchedule(), clock, failing);

    await clock.advance(41_000);

    expect(starts).toEqual([]);
    expect(logger.at("error").map((entry) => entry.fields?.due)).toEqual([
      "2026-01-01T00:00:20.000Z",
      "2026-01-01T00:00:40.000Z",
    ]);
    await scheduler.stop();
  });
});
