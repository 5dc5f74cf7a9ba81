/**
 * The schedules of the local runtime: the YAML store (`scheduler.storeFile`) and, with
 * `scheduler.enable`, the scheduler that runs them, opened together as soon as they can be
 * (retrying-opener.ts). A store whose directory cannot be created or written at start (a
 * read-only file system, a regular file in the way, no permission) does not stop Steward: one
 * ERROR names the file and the OS's reason, opening is tried again every `retryMs`, the schedule
 * endpoints answer 503 meanwhile (StoreUnavailableError) and no schedule runs; once the store
 * opens, an INFO says so and the scheduler starts every schedule as it would have at start.
 * Damaged content still fails the start, with what to repair. A change the disk refuses later
 * (read-only, full) is not made: the call answers 503 and an ERROR names the file and the reason.
 *
 * With cloud stores the schedules are opened by cloud-rest-stores.ts and `sharedSchedules` only
 * starts the scheduler over them.
 */

import { openedOrRefused, type StoreAvailability } from "../../core/adapters/local/opened-or-refused.ts";
import {
  DEFAULT_OPEN_RETRY_MS,
  isEnvironmentError,
  startRetryingOpener,
} from "../../core/adapters/local/retrying-opener.ts";
import { openYamlScheduleStore } from "../../core/adapters/local/yaml-schedule-store.ts";
import type { Clock, Logger, ScheduleStore } from "../../core/ports.ts";
import {
  type ScheduleRunner,
  type Scheduler,
  type SchedulerDeps,
  ScheduleStoreError,
  startScheduler,
} from "../../core/schedules/index.ts";
import { StoreUnavailableError } from "../../core/store-unavailable-error.ts";

/** What the scheduler is started with, besides the store. */
export type SchedulerSettings = Omit<SchedulerDeps, "store">;

export interface Schedules {
  /** The store the REST API uses (refusing with 503 while it cannot be opened). */
  store: ScheduleStore;
  /** The scheduler, when `scheduler.enable`. */
  runner: ScheduleRunner | undefined;
  /** The local store's state for the status page and the health check (absent: cloud store). */
  availability?(): StoreAvailability;
  stop(): Promise<void>;
}

export interface LocalSchedulesOptions {
  file: string;
  clock: Clock;
  logger: Logger;
  /** Absent: schedules are stored but not run here. */
  scheduler: SchedulerSettings | undefined;
  /** Time between two attempts to open (default 5000 ms). */
  retryMs?: number;
}

interface Opened {
  store: ScheduleStore;
  scheduler: Scheduler | undefined;
}

/** Tries to open once before resolving; rejects only for damaged content. */
export async function openLocalSchedules(options: LocalSchedulesOptions): Promise<Schedules> {
  const { file, retryMs = DEFAULT_OPEN_RETRY_MS } = options;
  const opener = await startRetryingOpener<Opened>({
    async open() {
      const store = await openYamlScheduleStore({ file });
      try {
        const settings = options.scheduler;
        return { store, scheduler: settings && (await startScheduler({ ...settings, store })) };
      } catch (error) {
        await store.close();
        throw error;
      }
    },
    async close({ store, scheduler }) {
      await scheduler?.stop();
      await store.close();
    },
    retryable: isEnvironmentError,
    fields: { file },
    messages: {
      cannotOpen:
        "Schedule store cannot be opened; no schedule runs and its endpoints answer 503 until it can",
      stillCannotOpen: "Schedule store still cannot be opened",
      opened: "Schedule store is open; its schedules run and its endpoints answer again",
      listenerFailed: "Schedule store: using it once open failed",
    },
    clock: options.clock,
    logger: options.logger,
    retryMs,
  });
  const refusal = "Schedule store temporarily unavailable";
  const retryAfterSeconds = Math.ceil(retryMs / 1000);
  const gate = openedOrRefused(opener, { file, refusal, retryAfterSeconds });
  const store = () => gate.use().store;
  /** A change the disk refused was not made (the store is unchanged): 503, and why in the log. */
  async function change<R>(write: (opened: ScheduleStore) => Promise<R>): Promise<R> {
    try {
      return await write(store());
    } catch (error) {
      if (!(error instanceof ScheduleStoreError)) throw error;
      options.logger.error("Schedule store failed to write; the change is not made", {
        file,
        error: error.message,
      });
      throw new StoreUnavailableError(refusal, retryAfterSeconds);
    }
  }
  return {
    store: {
      list: async () => store().list(),
      get: async (id) => store().get(id),
      put: (schedule) => change((opened) => opened.put(schedule)),
      delete: (id) => change((opened) => opened.delete(id)),
      close: () => opener.stop(),
    },
    runner:
      options.scheduler === undefined
        ? undefined
        : {
            // Changes reach the runner only after the store took them, so it is open by then.
            apply: (schedule) => opener.current()?.scheduler?.apply(schedule),
            remove: (id) => opener.current()?.scheduler?.remove(id),
            status: () => gate.use().scheduler?.status() ?? [],
          },
    availability: () => gate.availability(),
    stop: () => opener.stop(),
  };
}

/** The scheduler over a store shared with other processes (cloud stores). */
export async function sharedSchedules(
  store: ScheduleStore,
  settings: SchedulerSettings | undefined,
): Promise<Schedules> {
  const scheduler = settings && (await startScheduler({ ...settings, store }));
  return {
    store,
    runner: scheduler,
    async stop() {
      await scheduler?.stop();
      await store.close();
    },
  };
}
