import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openYamlScheduleStore } from "../../../../core/adapters/local/yaml-schedule-store.ts";
import type { TaskStarter } from "../../../../core/ports.ts";
import { ScheduleNotFoundError } from "../../../../core/schedules/errors.ts";
import { createScheduleManager, type NewSchedule } from "../../../../core/schedules/schedule-manager.ts";
import { startScheduler } from "../../../../core/schedules/scheduler.ts";
import { InvalidScheduleError } from "../../../../core/shared/invalid-schedule-error.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { createSteppingClock, type SteppingClock } from "../../../helpers/stepping-clock.ts";
import { suiteScratchDirectory } from "../../../helpers/suite-scratch-directory.ts";

const TASK = "e3b27f50-b1c0-4d51-a5e5-a4c7c7c9d4a1";

const scratch = suiteScratchDirectory("steward-scheduler-");

function recordingStarter(clock: SteppingClock) {
  const starts: { taskId: string; at: string }[] = [];
  const starter: TaskStarter = {
    async startTask(taskId) {
      starts.push({ taskId, at: new Date(clock.now()).toISOString() });
    },
  };
  return { starter, starts };
}

async function setUp(start = Date.UTC(2026, 0, 1)) {
  const clock = createSteppingClock(start);
  const file = join(scratch.fresh(), "schedules.yaml");
  const store = await openYamlScheduleStore({ file });
  const { starter, starts } = recordingStarter(clock);
  const logger = recordingLogger();
  const scheduler = await startScheduler({ store, clock, taskStarter: starter, logger });
  let ids = 0;
  const manager = createScheduleManager({
    store,
    clock,
    runner: scheduler,
    newId: () => `00000000-0000-4000-8000-00000000000${ids++}`,
  });
  return { clock, file, store, starter, starts, logger, scheduler, manager };
}

const input = (overrides: Partial<NewSchedule> = {}): NewSchedule => ({
  name: "every 20 s",
  cronSchedule: "*/20 * * * * *",
  timezone: "UTC",
  platformTaskId: TASK,
  startupState: "started",
  tags: ["t1"],
  ...overrides,
});

describe("scheduler: firing", () => {
  it("fires a 6-field (seconds) schedule exactly at its times under the injected clock", async () => {
    const { clock, manager, starts, scheduler } = await setUp();
    await manager.create(input());
    await clock.advance(61_000);
    expect(starts).toEqual([
      { taskId: TASK, at: "2026-01-01T00:00:20.000Z" },
      { taskId: TASK, at: "2026-01-01T00:00:40.000Z" },
      { taskId: TASK, at: "2026-01-01T00:01:00.000Z" },
    ]);
    await scheduler.stop();
  });

  it("fires a 5-field schedule in its own time zone", async () => {
    const { clock, manager, starts, scheduler } = await setUp();
    await manager.create(input({ cronSchedule: "0 9 * * *", timezone: "America/New_York" }));
    await clock.advance(24 * 3600_000);
    expect(starts.map((start) => start.at)).toEqual(["2026-01-01T14:00:00.000Z"]);
    await scheduler.stop();
  });

  it("waits longer than the 24.8-day timer limit without firing early", async () => {
    const { clock, manager, starts, scheduler } = await setUp();
    await manager.create(input({ cronSchedule: "0 0 1 3 *" })); // 1 March, 59 days away
    await clock.advance(58 * 24 * 3600_000);
    expect(starts).toEqual([]);
    await clock.advance(2 * 24 * 3600_000);
    expect(starts.map((start) => start.at)).toEqual(["2026-03-01T00:00:00.000Z"]);
    await scheduler.stop();
  });

  it("stops firing a stopped schedule and resumes when started", async () => {
    const { clock, manager, starts, scheduler } = await setUp();
    const schedule = await manager.create(input());
    const stopped = await manager.stop(schedule.id);
    expect(stopped.lastKnownState).toBe("stopped");
    await clock.advance(60_000);
    expect(starts).toEqual([]);
    await manager.start(schedule.id);
    await clock.advance(20_000);
    expect(starts).toHaveLength(1);
    await scheduler.stop();
  });

  it("creates a stopped schedule without firing it, and stopAll/startAll change every schedule", async () => {
    const { clock, manager, starts, scheduler } = await setUp();
    await manager.create(input({ startupState: "stopped" }));
    await manager.create(input({ cronSchedule: "*/30 * * * * *" }));
    await clock.advance(30_000);
    expect(starts).toHaveLength(1);
    expect((await manager.stopAll()).map((s) => s.lastKnownState)).toEqual(["stopped", "stopped"]);
    await clock.advance(60_000);
    expect(starts).toHaveLength(1);
    expect((await manager.startAll()).map((s) => s.lastKnownState)).toEqual(["started", "started"]);
    await clock.advance(30_000); // t=120 s: */20 fires at 100 and 120, */30 at 120
    expect(starts).toHaveLength(4);
    await scheduler.stop();
  });

  it("logs a failed task start and keeps the schedule running", async () => {
    const clock = createSteppingClock();
    const store = await openYamlScheduleStore({ file: join(scratch.fresh(), "s.yaml") });
    const logger = recordingLogger();
    let attempts = 0;
    const scheduler = await startScheduler({
      store,
      clock,
      logger,
      taskStarter: {
        async startTask() {
          attempts++;
          throw new Error("platform down");
        },
      },
    });
    const manager = createScheduleManager({ store, clock, runner: scheduler });
    await manager.create(input());
    await clock.advance(40_000);
    expect(attempts).toBe(2);
    expect(logger.entries.filter((entry) => entry.level === "error")).toHaveLength(2);
    await scheduler.stop();
    expect(clock.pendingTimers()).toBe(0);
  });
});

describe("scheduler: status, stored state and validation", () => {
  it("reports status one line per job: id, cron, timezone, state and next run", async () => {
    const { manager, scheduler } = await setUp();
    await manager.create(input());
    await manager.create(
      input({ cronSchedule: "0 9 * * *", timezone: "Europe/Stockholm", startupState: "stopped" }),
    );
    expect(await manager.statusText()).toBe(
      '00000000-0000-4000-8000-000000000000 cron="*/20 * * * * *" timezone=UTC state=running next=2026-01-01T00:00:20.000Z\n' +
        '00000000-0000-4000-8000-000000000001 cron="0 9 * * *" timezone=Europe/Stockholm state=stopped next=-\n',
    );
    await scheduler.stop();
  });

  it("honours startupState at start and persists it as lastKnownState", async () => {
    const first = await setUp();
    const started = await first.manager.create(input());
    const stopped = await first.manager.create(input({ startupState: "stopped" }));
    await first.manager.stop(started.id);
    await first.manager.start(stopped.id);
    await first.scheduler.stop();
    await first.store.close();
    // restart on the same file
    const clock = createSteppingClock(first.clock.now());
    const store = await openYamlScheduleStore({ file: first.file });
    const { starter, starts } = recordingStarter(clock);
    const scheduler = await startScheduler({
      store,
      clock,
      taskStarter: starter,
      logger: recordingLogger(),
    });
    expect((await store.get(started.id))?.lastKnownState).toBe("started");
    expect((await store.get(stopped.id))?.lastKnownState).toBe("stopped");
    await clock.advance(20_000);
    expect(starts).toHaveLength(1);
    expect(await readFile(first.file, "utf8")).toContain('cronSchedule: "*/20 * * * * *"');
    await scheduler.stop();
  });

  it("rejects invalid cron expressions and time zones with InvalidScheduleError", async () => {
    const { manager, scheduler } = await setUp();
    for (const bad of [
      input({ cronSchedule: "0 0 1 13 *" }), // month 13 (months are 1-12)
      input({ cronSchedule: "* * * *" }),
      input({ cronSchedule: "0 0 0 1 1 * 2027" }),
      input({ cronSchedule: "@daily" }),
      input({ cronSchedule: "not a cron" }),
      input({ timezone: "Nowhere/Zone" }),
      input({ timezone: "" }),
    ]) {
      await expect(manager.create(bad)).rejects.toBeInstanceOf(InvalidScheduleError);
    }
    expect(await manager.list()).toEqual([]);
    await scheduler.stop();
  });

  it("throws ScheduleNotFoundError for unknown ids and removes deleted jobs", async () => {
    const { clock, manager, starts, scheduler } = await setUp();
    await expect(manager.get("nope")).rejects.toBeInstanceOf(ScheduleNotFoundError);
    await expect(manager.start("nope")).rejects.toBeInstanceOf(ScheduleNotFoundError);
    await expect(manager.delete("nope")).rejects.toBeInstanceOf(ScheduleNotFoundError);
    const schedule = await manager.create(input());
    await manager.delete(schedule.id);
    await clock.advance(60_000);
    expect(starts).toEqual([]);
    expect(await manager.statusText()).toBe("");
    await scheduler.stop();
  });

  it("picks up schedules another writer changed in a shared store when polling", async () => {
    const clock = createSteppingClock();
    const store = await openYamlScheduleStore({ file: join(scratch.fresh(), "s.yaml") });
    const { starter, starts } = recordingStarter(clock);
    const scheduler = await startScheduler({
      store,
      clock,
      taskStarter: starter,
      logger: recordingLogger(),
      pollIntervalMs: 60_000,
    });
    // Another writer (the REST Lambda on the same DynamoDB table) adds a started schedule.
    const other = createScheduleManager({ store, clock, newId: () => "added-elsewhere" });
    await other.create(input({ cronSchedule: "*/10 * * * * *" }));
    await clock.advance(59_000);
    expect(starts).toEqual([]);
    await clock.advance(11_000); // poll at 60 s arms it; it fires at 70 s
    expect(starts.map((start) => start.at)).toEqual(["2026-01-01T00:01:10.000Z"]);
    await other.delete("added-elsewhere");
    await clock.advance(60_000); // next poll removes it
    const fired = starts.length;
    await clock.advance(60_000);
    expect(starts.length).toBe(fired);
    expect(scheduler.status()).toEqual([]);
    await scheduler.stop();
    expect(clock.pendingTimers()).toBe(0);
  });

  it("derives status from the store when no runner is attached (Lambda)", async () => {
    const clock = createSteppingClock();
    const store = await openYamlScheduleStore({ file: join(scratch.fresh(), "s.yaml") });
    const manager = createScheduleManager({ store, clock, newId: () => "id-1" });
    await manager.create(input({ cronSchedule: "0 * * * *" }));
    expect(await manager.statusText()).toBe(
      'id-1 cron="0 * * * *" timezone=UTC state=running next=2026-01-01T01:00:00.000Z\n',
    );
  });
});
