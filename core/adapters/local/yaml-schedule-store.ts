/**
 * ScheduleStore in a YAML file (`scheduler.storeFile`): `schedules:` followed by the list in
 * creation order. Kept in memory; every change rewrites the file atomically (temp file, fsync,
 * rename, directory fsync where the platform has one: sync-directory.ts) before it is acknowledged
 * and shown, one write at a time.
 */
import { constants } from "node:fs";
import { access, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { parse, stringify } from "yaml";
import type { Schedule, ScheduleStore } from "../../ports.ts";
import { byCreation, readStoredSchedule, ScheduleStoreError } from "../../schedules/index.ts";
import { makeDirectory } from "./make-directory.ts";
import { replaceFile } from "./replace-file.ts";
import { syncDirectory } from "./sync-directory.ts";

export interface YamlScheduleStoreOptions {
  file: string;
}

async function writeAtomically(file: string, text: string): Promise<void> {
  await replaceFile(file, text);
  await syncDirectory(dirname(file));
}

function parseFile(file: string, text: string): Schedule[] {
  const document = parse(text) as unknown;
  if (document === null || document === undefined) return [];
  const list = (document as { schedules?: unknown }).schedules;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new ScheduleStoreError(`${file}: 'schedules' must be a list`);
  return list.map((entry, index) => {
    const result = readStoredSchedule(entry);
    if (!result.ok)
      throw new ScheduleStoreError(`${file}: schedule ${index + 1} is invalid: ${result.problem}`);
    return result.schedule;
  });
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Reads the store, creating its directory as needed. Fails with the file and the OS's own reason
 * when the directory cannot be created or written (every change rewrites the file in it), or
 * with what is wrong and how to repair it when the file's content is damaged.
 */
export async function openYamlScheduleStore(options: YamlScheduleStoreOptions): Promise<ScheduleStore> {
  const { file } = options;
  let schedules: Schedule[];
  try {
    await makeDirectory(dirname(file));
    await access(dirname(file), constants.W_OK);
    let text: string | undefined;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    schedules = text === undefined ? [] : parseFile(file, text);
  } catch (error) {
    if (error instanceof ScheduleStoreError) throw error;
    const repair =
      (error as NodeJS.ErrnoException).syscall === undefined
        ? " (damaged content: repair the file, or move it aside to start without schedules)"
        : "";
    throw new ScheduleStoreError(`Cannot open schedule store ${file}: ${describe(error)}${repair}`, {
      cause: error,
    });
  }

  let writing: Promise<unknown> = Promise.resolve();
  /**
   * Queues a change: in its turn it is made on a copy of the stored list, the file is rewritten,
   * and only then does the copy become the list. A write the disk refuses changes nothing, so the
   * list never shows what a restart would not load.
   */
  function persist<R>(change: (list: Schedule[]) => { list: Schedule[]; result: R }): Promise<R> {
    const next = writing.then(async () => {
      const { list, result } = change(schedules);
      if (list !== schedules) {
        try {
          await writeAtomically(file, stringify({ schedules: list }));
        } catch (error) {
          throw new ScheduleStoreError(`Writing schedule store ${file} failed: ${describe(error)}`, {
            cause: error,
          });
        }
        schedules = list;
      }
      return result;
    });
    writing = next.catch(() => {});
    return next;
  }

  return {
    list: async () => schedules.map((schedule) => structuredClone(schedule)).sort(byCreation),
    get: async (id) => {
      const found = schedules.find((schedule) => schedule.id === id);
      return found === undefined ? undefined : structuredClone(found);
    },
    put: (schedule) =>
      persist((current) => {
        const copy = structuredClone(schedule);
        const index = current.findIndex((existing) => existing.id === schedule.id);
        const list =
          index < 0 ? [...current, copy] : current.map((existing, i) => (i === index ? copy : existing));
        return { list, result: undefined };
      }),
    delete: (id) =>
      persist((current) => {
        const list = current.filter((schedule) => schedule.id !== id);
        return list.length === current.length ? { list: current, result: false } : { list, result: true };
      }),
    close: async () => {
      await writing;
    },
  };
}
