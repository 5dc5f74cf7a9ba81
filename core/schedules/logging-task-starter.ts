/**
 * A TaskStarter that only logs what it would start. The local runner uses it until the
 * platform client (its own issue) supplies the real starter; it never pretends to succeed at
 * starting anything, it says in the log that nothing was started.
 */
import type { Logger, TaskStarter } from "../ports.ts";

export function createLoggingTaskStarter(logger: Logger): TaskStarter {
  return {
    async startTask(taskId) {
      logger.warn("No platform connection configured: scheduled task NOT started", {
        platformTaskId: taskId,
      });
    },
  };
}
