/** A task alert as enrichment makes it, with every part found, for the destination tests. */

import { available, notAvailable, type TaskAlert } from "../../core/alerts/task-alert.ts";
import { parseConfig } from "../../core/config/index.ts";

export const EXECUTION_ID = "32342464-c525-45c4-b755-1a2b55d4e7f1";
export const STOP_TIME = "2026-11-27T02:01:00.000Z";

export function failedAlert(overrides: Partial<TaskAlert> = {}): TaskAlert {
  return {
    kind: "reloadTaskFailure",
    event: {
      kind: "failed",
      prefix: "/scheduler-task-failed/",
      hostName: "qs-node1",
      taskName: "Reload Sales",
      appName: "Sales dashboard",
      user: "INTERNAL\\sa_scheduler",
      taskId: "54767e54-af40-4da3-8c3a-a9ead04c7ee9",
      appId: "a9e84152-206c-4b0e-a459-e5c2021f8316",
      logTimeStamp: "2026-11-27 03:01:00,345",
      logLevel: "ERROR",
      executionId: EXECUTION_ID,
      logMessage: "Task finished with state FinishedFail. Max retries reached",
      receivedAtMs: Date.parse("2026-11-27T02:01:02.000Z"),
      sender: "10.0.0.5",
    },
    task: available({
      id: "54767e54-af40-4da3-8c3a-a9ead04c7ee9",
      name: "Reload Sales",
      taskType: 0,
      tags: ["nightly"],
      customProperties: [{ name: "Department", value: "Finance" }],
      isManuallyTriggered: false,
      isPartialReload: false,
      maxRetries: 0,
      modifiedByUserName: "INTERNAL\\sa_repository",
      modifiedDate: "2026-11-01T10:00:00.000Z",
      sessionTimeout: 1440,
      nextExecution: undefined,
    }),
    app: available({
      id: "a9e84152-206c-4b0e-a459-e5c2021f8316",
      name: "Sales dashboard",
      description: "",
      fileSize: 1024,
      lastReloadTime: undefined,
      modifiedDate: "2026-11-01T10:00:00.000Z",
      modifiedByUserName: "ACME\\aberg",
      publishTime: undefined,
      published: false,
      streamName: "",
      tags: ["sales"],
      customProperties: [],
    }),
    execution: available({
      executionId: EXECUTION_ID,
      status: 8,
      statusText: "FinishedFail",
      executingNodeName: "qs-node2",
      startTime: "2026-11-27T01:59:45.000Z",
      stopTime: STOP_TIME,
      durationMs: 75_000,
      details: [
        {
          at: "2026-11-27T01:59:45.000Z",
          message: "Changing task state from NeverStarted to Triggered",
          detailsType: 2,
        },
        { at: STOP_TIME, message: "Task finished with errors", detailsType: 1 },
      ],
      scriptLogSize: 4096,
    }),
    scriptLog: available({
      lines: ["line 1", "line 2", "line 3", "Error: boom"],
      lineCount: 4,
      characters: 40,
    }),
    appOwner: notAvailable("not looked up in this test"),
    ...overrides,
  };
}

/** The default settings of `taskEvents`, with `overrides` given as in a configuration file. */
export function taskEventsSettings(overrides: Record<string, unknown> = {}) {
  const result = parseConfig({ Service: { taskEvents: { enable: true, ...overrides } } });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.config.taskEvents;
}
