/** The ScheduleStore contract: every adapter runs this one suite (see schedule-store.test.ts). */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Schedule, ScheduleStore } from "../../core/ports.ts";

export interface ScheduleStoreFactory {
  create(): Promise<ScheduleStore>;
  /** A new instance over the same persisted data (the old one is closed first). */
  reopen(store: ScheduleStore): Promise<ScheduleStore>;
}

export function sampleSchedule(overrides: Partial<Schedule> = {}): Schedule {
  return {
    id: "0b6d1f0e-4c5a-4d7e-9a1b-2c3d4e5f6a7b",
    created: "2026-01-01T00:00:00.000Z",
    name: "Nightly reload",
    cronSchedule: "0 30 2 * * *",
    timezone: "Europe/Stockholm",
    platformTaskId: "e3b27f50-b1c0-4d51-a5e5-a4c7c7c9d4a1",
    startupState: "started",
    tags: ["finance", "nightly"],
    lastKnownState: "started",
    ...overrides,
  };
}

export function describeScheduleStoreContract(name: string, factory: ScheduleStoreFactory): void {
  describe(`ScheduleStore contract: ${name}`, () => {
    let store: ScheduleStore;
    beforeEach(async () => {
      store = await factory.create();
    });
    afterEach(async () => {
      await store.close();
    });

    it("returns a stored schedule with every member and undefined for an unknown id", async () => {
      const schedule = sampleSchedule();
      await store.put(schedule);
      expect(await store.get(schedule.id)).toEqual(schedule);
      expect(await store.get("nope")).toBeUndefined();
    });

    it("lists schedules in creation order", async () => {
      await store.put(sampleSchedule({ id: "b", created: "2026-01-02T00:00:00.000Z" }));
      await store.put(sampleSchedule({ id: "a", created: "2026-01-03T00:00:00.000Z" }));
      await store.put(sampleSchedule({ id: "c", created: "2026-01-01T00:00:00.000Z" }));
      expect((await store.list()).map((schedule) => schedule.id)).toEqual(["c", "b", "a"]);
    });

    it("replaces a schedule put again with the same id, keeping empty tags", async () => {
      await store.put(sampleSchedule());
      await store.put(sampleSchedule({ lastKnownState: "stopped", tags: [] }));
      expect(await store.list()).toEqual([sampleSchedule({ lastKnownState: "stopped", tags: [] })]);
    });

    it("deletes a schedule and reports whether it existed", async () => {
      await store.put(sampleSchedule());
      expect(await store.delete(sampleSchedule().id)).toBe(true);
      expect(await store.delete(sampleSchedule().id)).toBe(false);
      expect(await store.list()).toEqual([]);
    });

    it("does not let a caller mutate stored schedules through returned objects", async () => {
      await store.put(sampleSchedule());
      const read = await store.get(sampleSchedule().id);
      read!.tags.push("mutated");
      expect((await store.get(sampleSchedule().id))?.tags).toEqual(["finance", "nightly"]);
    });

    it("keeps schedules across a restart", async () => {
      await store.put(sampleSchedule({ id: "one" }));
      await Promise.all([
        store.put(sampleSchedule({ id: "two", created: "2026-02-01T00:00:00.000Z" })),
        store.put(sampleSchedule({ id: "three", created: "2026-03-01T00:00:00.000Z" })),
      ]);
      await store.delete("one");
      store = await factory.reopen(store);
      expect((await store.list()).map((schedule) => schedule.id)).toEqual(["two", "three"]);
    });
  });
}
