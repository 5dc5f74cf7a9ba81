/**
 * The scheduler service (local runner / on-prem agent): fires every started schedule at its
 * next cron time in its time zone and asks the TaskStarter to start the schedule's platform
 * task. Timers come from the injected Clock, so tests drive time by hand.
 *
 * At start every schedule takes its `startupState` as `lastKnownState` (persisted). `apply` and
 * `remove` keep the jobs in step with changes made through the REST API; `reload` (and the
 * optional poll) re-reads the store, for an agent that shares a cloud store with Lambda.
 *
 * Several agents sharing a store fire the same schedules; before starting a task the scheduler
 * claims the occurrence from the ScheduleLease, and only the process granted the claim starts it.
 * A claim that cannot be settled (the store is unreachable) starts nothing: an occurrence is
 * started at most once, and the failure is logged.
 */
import type { Cron } from "croner";
import type {
  Clock,
  Logger,
  Schedule,
  ScheduleLease,
  ScheduleStore,
  Stoppable,
  TaskStarter,
  TimerHandle,
} from "../ports.ts";
import { nextRunAfter, parseCron } from "./cron.ts";
import type { JobStatus } from "./status.ts";

/** Where schedule changes are pushed so that what runs matches what is stored. */
export interface ScheduleRunner {
  /** Arms (lastKnownState started) or disarms (stopped) the job of this schedule. */
  apply(schedule: Schedule): void;
  remove(id: string): void;
  /** Every job the scheduler holds, in creation order: the authoritative view of what runs. */
  status(): JobStatus[];
}

export interface Scheduler extends Stoppable, ScheduleRunner {
  /** Re-reads the store and brings the jobs in line with it. */
  reload(): Promise<void>;
}

export interface SchedulerDeps {
  store: ScheduleStore;
  clock: Clock;
  taskStarter: TaskStarter;
  logger: Logger;
  /** When set, `reload` runs this often (ms): for stores shared with other writers. */
  pollIntervalMs?: number;
  /** Who starts an occurrence when several processes fire these schedules; absent: this one. */
  lease?: ScheduleLease;
}

/** Node timers overflow above 2^31-1 ms (~24.8 days); longer waits are chained. */
const MAX_TIMER_MS = 2_147_483_647;

interface Job {
  schedule: Schedule;
  cron: Cron | undefined;
  timer: TimerHandle | undefined;
  next: number | undefined;
}

export async function startScheduler(deps: SchedulerDeps): Promise<Scheduler> {
  const { clock, logger } = deps;
  const jobs = new Map<string, Job>();
  let stopped = false;
  let pollTimer: TimerHandle | undefined;

  function disarm(job: Job): void {
    if (job.timer !== undefined) clock.clearTimeout(job.timer);
    job.timer = undefined;
    job.next = undefined;
  }

  function arm(job: Job, from: number): void {
    if (stopped || job.cron === undefined) return;
    job.next = nextRunAfter(job.cron, from);
    if (job.next !== undefined) wait(job, job.next);
  }

  function wait(job: Job, due: number): void {
    const delay = Math.min(Math.max(0, due - clock.now()), MAX_TIMER_MS);
    job.timer = clock.setTimeout(() => onTimer(job, due), delay);
  }

  function onTimer(job: Job, due: number): void {
    job.timer = undefined;
    if (jobs.get(job.schedule.id) !== job || stopped) return;
    if (clock.now() < due) {
      wait(job, due); // chained long wait, or a timer that woke early
      return;
    }
    void fire(job.schedule, due);
    arm(job, Math.max(due, clock.now()));
  }

  async function fire(schedule: Schedule, due: number): Promise<void> {
    const { id, name, platformTaskId } = schedule;
    const occurrence = { scheduleId: id, due: new Date(due).toISOString() };
    if (deps.lease !== undefined) {
      let claimed: boolean;
      try {
        claimed = await deps.lease.claim(id, due);
      } catch (error) {
        logger.error("Schedule occurrence could not be claimed; its task is not started", {
          ...occurrence,
          platformTaskId,
          error: String(error),
        });
        return;
      }
      if (!claimed) {
        logger.debug("Schedule occurrence started by another instance", occurrence);
        return;
      }
    }
    logger.info("Schedule fired, starting platform task", {
      ...occurrence,
      scheduleName: name,
      platformTaskId,
    });
    try {
      await deps.taskStarter.startTask(platformTaskId);
    } catch (error) {
      logger.error("Scheduled task start failed", { scheduleId: id, platformTaskId, error: String(error) });
    }
  }

  function apply(schedule: Schedule): void {
    const existing = jobs.get(schedule.id);
    if (existing !== undefined) disarm(existing);
    let cron: Cron | undefined;
    try {
      cron = parseCron(schedule.cronSchedule, schedule.timezone);
    } catch (error) {
      // Only a hand-edited store can hold this; the job is listed, stopped, and the reason logged.
      logger.error("Schedule has an invalid cron expression or time zone; it will not run", {
        scheduleId: schedule.id,
        error: String(error),
      });
    }
    const job: Job = { schedule: { ...schedule }, cron, timer: undefined, next: undefined };
    jobs.set(schedule.id, job);
    if (schedule.lastKnownState === "started") arm(job, clock.now());
  }

  function remove(id: string): void {
    const job = jobs.get(id);
    if (job === undefined) return;
    disarm(job);
    jobs.delete(id);
  }

  async function reload(): Promise<void> {
    const schedules = await deps.store.list();
    const ids = new Set(schedules.map((schedule) => schedule.id));
    for (const id of [...jobs.keys()]) if (!ids.has(id)) remove(id);
    for (const schedule of schedules) {
      const job = jobs.get(schedule.id);
      if (job === undefined || !sameJob(job.schedule, schedule)) apply(schedule);
    }
  }

  function schedulePoll(): void {
    if (deps.pollIntervalMs === undefined || stopped) return;
    pollTimer = clock.setTimeout(() => {
      reload()
        .catch((error: unknown) => logger.error("Reloading schedules failed", { error: String(error) }))
        .finally(schedulePoll);
    }, deps.pollIntervalMs);
  }

  for (const schedule of await deps.store.list()) {
    if (schedule.lastKnownState !== schedule.startupState) {
      await deps.store.put({ ...schedule, lastKnownState: schedule.startupState });
    }
    apply({ ...schedule, lastKnownState: schedule.startupState });
  }
  logger.info("Scheduler started", { schedules: jobs.size });
  schedulePoll();

  return {
    apply,
    remove,
    reload,
    status: () =>
      [...jobs.values()].map((job) => ({
        id: job.schedule.id,
        cronSchedule: job.schedule.cronSchedule,
        timezone: job.schedule.timezone,
        running: !stopped && job.cron !== undefined && job.schedule.lastKnownState === "started",
        next: job.next,
      })),
    async stop() {
      if (stopped) return;
      stopped = true;
      if (pollTimer !== undefined) clock.clearTimeout(pollTimer);
      for (const job of jobs.values()) disarm(job);
      logger.info("Scheduler stopped");
    },
  };
}

function sameJob(a: Schedule, b: Schedule): boolean {
  return (
    a.cronSchedule === b.cronSchedule &&
    a.timezone === b.timezone &&
    a.platformTaskId === b.platformTaskId &&
    a.lastKnownState === b.lastKnownState &&
    a.name === b.name
  );
}
