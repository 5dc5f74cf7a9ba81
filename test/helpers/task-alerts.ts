/**
 * TaskAlerts as enrichment makes them, for tests of the destinations: a failed reload with every
 * part found, and overrides to take parts away or change them.
 */

import type { AlertLinks } from "../../core/alerts/alert-view.ts";
import {
  type AppOwner,
  available,
  type Enriched,
  notAvailable,
  type ScriptLog,
  type TaskAlert,
  type TaskInfo,
} from "../../core/alerts/task-alert.ts";

export const TASK_ID = "0c9ad0f6-1b2c-4d5e-8f90-a1b2c3d4e5f6";
export const APP_ID = "7d2b9e10-3c4d-4e5f-9a0b-c1d2e3f4a5b6";

export const LINKS: AlertLinks = {
  qlikSenseUrls: {
    qmc: "https://sense.example.com/qmc",
    hub: "https://sense.example.com/hub",
    appBaseUrl: "https://sense.example.com/sense/app",
  },
  genericUrls: [],
};

export const SCRIPT_LOG_LINES = [
  "20260620T140001.123+0200 Execution started.",
  "20260620T140001.456+0200 Qlik Sense Server Version 14.187.4",
  "20260620T140002.001+0200 0004 LIB CONNECT TO 'Sales DB'",
  "20260620T140002.350+0200 0005 Sales:",
  "20260620T140002.351+0200 0006 LOAD * FROM [lib://Sales/orders_2026.qvd] (qvd)",
  "20260620T140003.900+0200 Error: Cannot open file: 'lib://Sales/orders_2026.qvd' (Native Path: \\\\fileserver\\sales\\orders_2026.qvd)",
  "20260620T140003.901+0200 Execution Failed",
  "20260620T140003.910+0200 Execution finished.",
];

export function scriptLog(lines: readonly string[] = SCRIPT_LOG_LINES): ScriptLog {
  return { lines, lineCount: lines.length, characters: lines.join("\r\n").length };
}

export function taskInfo(overrides: Partial<TaskInfo> = {}): TaskInfo {
  return {
    id: TASK_ID,
    name: "Reload Sales dashboard",
    taskType: 0,
    tags: ["Finance"],
    customProperties: [],
    isManuallyTriggered: false,
    isPartialReload: false,
    maxRetries: 0,
    modifiedByUserName: "LAB\\admin",
    modifiedDate: "2026-06-01T08:00:00.000Z",
    sessionTimeout: 1440,
    nextExecution: "2026-06-21T12:00:00.000Z",
    ...overrides,
  };
}

export function appOwner(overrides: Partial<AppOwner> = {}): AppOwner {
  return {
    id: "owner-1",
    name: "Ada Owner",
    userDirectory: "LAB",
    userId: "ada",
    emails: ["ada.owner@example.com"],
    ...overrides,
  };
}

export interface AlertOverrides {
  kind?: TaskAlert["kind"];
  taskName?: string;
  task?: Enriched<TaskInfo>;
  scriptLog?: Enriched<ScriptLog>;
  appOwner?: Enriched<AppOwner>;
  taskId?: string;
}

export function failedReloadAlert(overrides: AlertOverrides = {}): TaskAlert {
  const taskName = overrides.taskName ?? "Reload Sales dashboard";
  const taskId = overrides.taskId ?? TASK_ID;
  return {
    kind: overrides.kind ?? "reloadTaskFailure",
    event: {
      kind: "failed",
      prefix: "/scheduler-reload-failed/",
      hostName: "sense-node-2",
      taskName,
      appName: "Sales dashboard",
      user: "LAB\\sa_scheduler",
      taskId,
      appId: APP_ID,
      logTimeStamp: "2026-06-20 14:00:03,912",
      logLevel: "ERROR",
      executionId: "e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b",
      logMessage: "Task finished with state FinishedFail",
      receivedAtMs: Date.parse("2026-06-20T12:00:04Z"),
      sender: "127.0.0.1",
    },
    task: overrides.task ?? available(taskInfo({ name: taskName, id: taskId })),
    app: available({
      id: APP_ID,
      name: "Sales dashboard",
      description: "Daily sales",
      fileSize: 1_048_576,
      lastReloadTime: "2026-06-19T12:00:10.000Z",
      modifiedDate: "2026-06-19T12:00:10.000Z",
      modifiedByUserName: "LAB\\sa_scheduler",
      publishTime: "2026-05-01T09:00:00.000Z",
      published: true,
      streamName: "Finance",
      tags: [],
      customProperties: [],
    }),
    execution: available({
      executionId: "e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b",
      status: 8,
      statusText: "FinishedFail",
      executingNodeName: "sense-node-2",
      startTime: "2026-06-20T12:00:01.000Z",
      stopTime: "2026-06-20T12:00:03.910Z",
      durationMs: 2910,
      details: [],
      scriptLogSize: 900,
    }),
    scriptLog: overrides.scriptLog ?? available(scriptLog()),
    appOwner: overrides.appOwner ?? available(appOwner()),
  };
}

export { available, notAvailable };
