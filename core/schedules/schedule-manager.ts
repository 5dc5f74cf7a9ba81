/**
 * Schedule use cases behind the REST endpoints: create, list, get, delete, start, stop,
 * start all, stop all, status. Every change is persisted first, then pushed to the runner (the
 * scheduler service locally). Without a runner (Lambda: schedules fire only on the agent) the
 * status is derived from the stored states, which is what the agent runs.
 */
import type { Clock, Schedule, ScheduleState, ScheduleStore } from "../ports.ts";
import { nextRunAfter, parseCron } from "./cron.ts";
import { ScheduleNotFoundError } from "./errors.ts";
import type { ScheduleRunner } from "./scheduler.ts";
import { formatStatusText, type JobStatus } from "./status.ts";

/** What a client supplies; the store adds id, created and lastKnownState. */
export type NewSchedule = Omit<Schedule, "id" | "created" | "lastKnownState">;

export interface ScheduleManagerDeps {
  store: ScheduleStore;
  clock: Clock;
  runner?: ScheduleRunner;
  newId?: () => string;
}

export interface ScheduleManager {
  create(input: NewSchedule): Promise<Schedule>;
  list(): Promise<Schedule[]>;
  /** Throws ScheduleNotFoundError. */
  get(id: string): Promise<Schedule>;
  delete(id: string): Promise<void>;
  start(id: string): Promise<Schedule>;
  stop(id: string): Promise<Schedule>;
  startAll(): Promise<Schedule[]>;
  stopAll(): Promise<Schedule[]>;
  statusText(): Promise<string>;
}

export function createScheduleManager(deps: ScheduleManagerDeps): ScheduleManager {
  const { store, clock, runner } = deps;
  const newId = deps.newId ?? (() => crypto.randomUUID());

  async function get(id: string): Promise<Schedule> {
    const schedule = await store.get(id);
    if (schedule === undefined) throw new ScheduleNotFoundError(id);
    return schedule;
  }

  async function setState(schedule: Schedule, state: ScheduleState): Promise<Schedule> {
    const updated = { ...schedule, lastKnownState: state };
    if (schedule.lastKnownState !== state) await store.put(updated);
    runner?.apply(updated);
    return updated;
  }

  function derivedStatus(schedules: Schedule[]): JobStatus[] {
    return schedules.map((schedule) => {
      const running = schedule.lastKnownState === "started";
      let next: number | undefined;
      if (running) {
        try {
          next = nextRunAfter(parseCron(schedule.cronSchedule, schedule.timezone), clock.now());
        } catch {
          next = undefined; // a hand-edited invalid entry: listed, never runs
        }
      }
      return { ...schedule, running, next };
    });
  }

  return {
    async create(input) {
      parseCron(input.cronSchedule, input.timezone); // throws InvalidScheduleError (400)
      const schedule: Schedule = {
        id: newId(),
        created: new Date(clock.now()).toISOString(),
        name: input.name,
        cronSchedule: input.cronSchedule,
        timezone: input.timezone,
        platformTaskId: input.platformTaskId,
        startupState: input.startupState,
        tags: [...input.tags],
        lastKnownState: input.startupState,
      };
      await store.put(schedule);
      runner?.apply(schedule);
      return schedule;
    },
    list: () => store.list(),
    get,
    async delete(id) {
      if (!(await store.delete(id))) throw new ScheduleNotFoundError(id);
      runner?.remove(id);
    },
    start: async (id) => setState(await get(id), "started"),
    stop: async (id) => setState(await get(id), "stopped"),
    async startAll() {
      const all = await store.list();
      return Promise.all(all.map((schedule) => setState(schedule, "started")));
    },
    async stopAll() {
      const all = await store.list();
      return Promise.all(all.map((schedule) => setState(schedule, "stopped")));
    },
    async statusText() {
      return formatStatusText(runner ? runner.status() : derivedStatus(await store.list()));
    },
  };
}
