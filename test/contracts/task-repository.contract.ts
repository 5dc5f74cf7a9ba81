/**
 * The TaskRepository contract (core/task-events/task-repository.ts): every implementation runs
 * this one suite (see task-repository.test.ts) against the simulated platform over mutual TLS,
 * whose catalogue it reads. A task, an app, its owner and the owner's e-mail addresses are found
 * by id, with their names, tags and custom properties; an id the repository does not know answers
 * undefined (no alert for a task the repository does not know depends on it), an execution it
 * has no result of answers no results; a repository that cannot be reached rejects, never answers
 * "not found".
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaskRepository } from "../../core/task-events/task-repository.ts";
import { APP_SALES, TASK_SALES, TASK_UNKNOWN } from "../../local/simulated-platform/catalogue.ts";
import { OWNER_EMAIL, OWNER_ID } from "../../local/simulated-platform/task-routes.ts";
import { startTestPlatform, type TestPlatform } from "../fixtures/platform/test-platform.ts";

export interface OpenTaskRepository {
  readonly repository: TaskRepository;
  close(): void;
}

/** Opens the implementation on the platform that `platform` simulates. */
export type TaskRepositoryFactory = (platform: TestPlatform) => Promise<OpenTaskRepository>;

export function describeTaskRepositoryContract(name: string, open: TaskRepositoryFactory): void {
  describe(`TaskRepository contract: ${name}`, () => {
    let platform: TestPlatform;
    let opened: OpenTaskRepository;
    beforeAll(async () => {
      platform = await startTestPlatform();
      opened = await open(platform);
    });
    afterAll(async () => {
      opened?.close();
      await platform?.stop();
    });

    it("finds a task by id with its name, tags, custom properties and app", async () => {
      const task = await opened.repository.task(TASK_SALES);
      expect(task).toMatchObject({ id: TASK_SALES, name: "Reload Sales", appId: APP_SALES });
      expect(task?.tags).toContain("nightly");
      expect(task?.customProperties).toContainEqual({ name: "Department", value: "Finance" });
    });

    it("finds an app by id, and its owner and the owner's e-mail addresses", async () => {
      expect(await opened.repository.app(APP_SALES)).toMatchObject({ name: "Sales dashboard" });
      const owner = await opened.repository.appOwner(APP_SALES);
      expect(owner?.id).toBe(OWNER_ID);
      expect(await opened.repository.userEmails(OWNER_ID)).toContain(OWNER_EMAIL);
    });

    it("answers undefined for ids it does not know, and no results for an execution it has none of", async () => {
      expect(await opened.repository.task(TASK_UNKNOWN)).toBeUndefined();
      expect(await opened.repository.app(randomUUID())).toBeUndefined();
      expect(await opened.repository.executionResults(randomUUID())).toEqual([]);
    });

    it("rejects, never answers not found, while the repository cannot be reached", async () => {
      await platform.stop();
      await expect(opened.repository.task(TASK_SALES)).rejects.toThrow();
      await expect(opened.repository.app(APP_SALES)).rejects.toThrow();
    });
  });
}
