/**
 * The PlatformClient contract: what every adapter must do against a platform holding the
 * simulated catalogue (local/simulated-platform/catalogue.ts). Adapter tests call it with a
 * factory for their client and the record of task starts the platform accepted.
 */
import { describe, expect, it } from "vitest";
import { AppNotFoundError, TaskNotFoundError, TaskNotStartedError } from "../../core/platform/errors.ts";
import type { PlatformClient } from "../../core/ports.ts";
import {
  APP_BROKEN,
  APP_SALES,
  APP_UNKNOWN,
  TAG_WITH_QUOTE,
  TASK_DISABLED,
  TASK_FINANCE,
  TASK_SALES,
  TASK_UNKNOWN,
} from "../../local/simulated-platform/catalogue.ts";

export interface PlatformClientContractContext {
  client(): PlatformClient;
  startedTaskIds(): readonly string[];
}

export function describePlatformClientContract(name: string, context: PlatformClientContractContext): void {
  describe(`PlatformClient contract: ${name}`, () => {
    it("finds a task by id with its name, tags and custom properties", async () => {
      expect(await context.client().findTaskById(TASK_SALES)).toEqual({
        id: TASK_SALES,
        name: "Reload Sales",
        tags: ["nightly", TAG_WITH_QUOTE],
        customProperties: [{ name: "Department", value: "Finance" }],
      });
    });

    it("answers undefined for a task id the platform does not know", async () => {
      expect(await context.client().findTaskById(TASK_UNKNOWN)).toBeUndefined();
    });

    it("finds every task carrying a tag", async () => {
      const tasks = await context.client().findTasksByTag("nightly");
      expect(tasks.map((t) => t.id).sort()).toEqual([TASK_SALES, TASK_FINANCE].sort());
    });

    it("finds tasks by a tag containing a single quote", async () => {
      expect(await context.client().findTasksByTag(TAG_WITH_QUOTE)).toEqual([
        {
          id: TASK_SALES,
          name: "Reload Sales",
          tags: ["nightly", TAG_WITH_QUOTE],
          customProperties: [{ name: "Department", value: "Finance" }],
        },
      ]);
    });

    it("finds no task for a tag nobody carries", async () => {
      expect(await context.client().findTasksByTag("no such tag")).toEqual([]);
    });

    it("finds tasks by custom property name and value, quotes included", async () => {
      const finance = await context.client().findTasksByCustomProperty("Department", "Finance");
      expect(finance.map((t) => t.id).sort()).toEqual([TASK_SALES, TASK_FINANCE].sort());
      const owner = await context.client().findTasksByCustomProperty("Owner", "O'Brien");
      expect(owner).toEqual([
        {
          id: TASK_FINANCE,
          name: "Reload Finance",
          tags: ["nightly"],
          customProperties: [
            { name: "Department", value: "Finance" },
            { name: "Owner", value: "O'Brien" },
          ],
        },
      ]);
    });

    it("starts a task and the platform records the start", async () => {
      await context.client().startTask(TASK_FINANCE);
      expect(context.startedTaskIds()).toContain(TASK_FINANCE);
    });

    it("rejects starting an unknown task with TaskNotFoundError", async () => {
      await expect(context.client().startTask(TASK_UNKNOWN)).rejects.toBeInstanceOf(TaskNotFoundError);
    });

    it("rejects a start the platform did not perform with TaskNotStartedError", async () => {
      await expect(context.client().startTask(TASK_DISABLED)).rejects.toBeInstanceOf(TaskNotStartedError);
    });

    it("finds an app by id and answers undefined for an unknown one", async () => {
      expect(await context.client().findAppById(APP_SALES)).toEqual({
        id: APP_SALES,
        name: "Sales dashboard",
      });
      expect(await context.client().findAppById(APP_UNKNOWN)).toBeUndefined();
    });

    it("lists apps as id and name", async () => {
      expect(await context.client().listApps()).toEqual([
        { id: APP_SALES, name: "Sales dashboard" },
        { id: APP_BROKEN, name: "Broken script" },
      ]);
    });

    it("lists the repository's apps as id and name", async () => {
      expect(await context.client().listRepositoryApps()).toEqual([
        { id: APP_SALES, name: "Sales dashboard" },
        { id: APP_BROKEN, name: "Broken script" },
      ]);
    });

    it("reloads an app and reports success or failure", async () => {
      expect(await context.client().reloadApp(APP_SALES, { mode: 0, partial: false })).toBe(true);
      expect(await context.client().reloadApp(APP_BROKEN, { mode: 1, partial: true })).toBe(false);
    });

    it("rejects reloading or dumping an unknown app with AppNotFoundError", async () => {
      await expect(
        context.client().reloadApp(APP_UNKNOWN, { mode: 0, partial: false }),
      ).rejects.toBeInstanceOf(AppNotFoundError);
      await expect(context.client().dumpApp(APP_UNKNOWN)).rejects.toBeInstanceOf(AppNotFoundError);
    });

    it("dumps an app as one object naming the app", async () => {
      const dump = await context.client().dumpApp(APP_SALES);
      expect(dump.appId).toBe(APP_SALES);
      expect(Object.keys(dump)).toEqual(
        expect.arrayContaining(["properties", "loadScript", "sheets", "dimensions", "measures", "fields"]),
      );
    });
  });
}
