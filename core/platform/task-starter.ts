/**
 * The scheduler's TaskStarter backed by the platform: a firing schedule starts its task through
 * the repository API. Errors (unknown task, platform down) reach the scheduler, which logs them.
 */
import type { PlatformClient, TaskStarter } from "../ports.ts";
import { normalizeGuid } from "./guid.ts";

export function createPlatformTaskStarter(platform: Pick<PlatformClient, "startTask">): TaskStarter {
  return {
    startTask: (taskId) => platform.startTask(normalizeGuid(taskId)),
  };
}
