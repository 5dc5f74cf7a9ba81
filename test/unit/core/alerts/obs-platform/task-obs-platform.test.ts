import { describe, expect, it } from "vitest";
import {
  NO_SCRIPT_LOG,
  obsPlatformEvent,
  obsPlatformLog,
  type PayloadSettings,
} from "../../../../../core/alerts/obs-platform/task-obs-platform.ts";
import { notAvailable } from "../../../../../core/alerts/task-alert.ts";
import { failedAlert } from "../../../../helpers/task-alert-fixture.ts";
import { LINKS } from "../../../../helpers/task-alerts.ts";

const SETTINGS: PayloadSettings = {
  shared: [
    { name: "environment", value: "prod" },
    { name: "qs_taskName", value: "a static attribute never replaces the task's name" },
  ],
  own: { static: [{ name: "team", value: "bi-platform" }], dynamic: { useAppTags: true, useTaskTags: true } },
  version: "9.9.9",
};

const attributesOf = (event: ReturnType<typeof obsPlatformEvent>) =>
  Object.fromEntries(event.attributes.map(({ name, value }) => [name, value]));

describe("the observability event of a reload alert", () => {
  it("carries the task event, the task and app found, their tags and the static attributes", () => {
    // Act
    const event = obsPlatformEvent(failedAlert(), "reloadTaskFailure", SETTINGS);

    // Assess
    expect(event.eventType).toBe("qs_reloadTaskFailedEvent");
    expect(event.timestamp).toBe(Date.parse("2026-11-27T02:01:02.000Z"));
    expect(attributesOf(event)).toEqual({
      environment: "prod",
      team: "bi-platform",
      version: "9.9.9",
      qs_hostName: "qs-node1",
      qs_user: "INTERNAL/sa_scheduler",
      qs_taskName: "Reload Sales",
      qs_taskId: "54767e54-af40-4da3-8c3a-a9ead04c7ee9",
      qs_appName: "Sales dashboard",
      qs_appId: "a9e84152-206c-4b0e-a459-e5c2021f8316",
      qs_logTimeStamp: "2026-11-27 03:01:00,345",
      qs_logLevel: "ERROR",
      qs_executionId: "32342464-c525-45c4-b755-1a2b55d4e7f1",
      qs_logMessage: "Task finished with state FinishedFail. Max retries reached",
      qs_appCustomProperties: "[]",
      qs_taskCustomProperties: '[{"name":"Department","value":"Finance"}]',
      qs_taskTag_nightly: "true",
      qs_appTag_sales: "true",
    });
    expect(event.attributes.every(({ value }) => typeof value === "string")).toBe(true);
  });

  it("names an aborted reload by its own event type and leaves tags out when switched off", () => {
    // Act
    const event = obsPlatformEvent(failedAlert({ kind: "reloadTaskAborted" }), "reloadTaskAborted", {
      ...SETTINGS,
      own: { static: [], dynamic: { useAppTags: false, useTaskTags: false } },
    });

    // Assess
    expect(event.eventType).toBe("qs_reloadTaskAbortedEvent");
    const names = event.attributes.map(({ name }) => name);
    expect(names.filter((name) => name.startsWith("qs_taskTag_") || name.startsWith("qs_appTag_"))).toEqual(
      [],
    );
  });

  it("still goes out with the datagram's names when the task and app could not be looked up", () => {
    // Act
    const event = obsPlatformEvent(
      failedAlert({ task: notAvailable("repository down"), app: notAvailable("repository down") }),
      "reloadTaskFailure",
      SETTINGS,
    );

    // Assess
    expect(attributesOf(event)).toMatchObject({
      qs_taskName: "Reload Sales",
      qs_appName: "Sales dashboard",
      qs_taskCustomProperties: "[]",
    });
  });
});

describe("the observability log entry of a reload alert", () => {
  it("carries the execution's result and a message of its details and the script log's tail", () => {
    // Act
    const log = obsPlatformLog(failedAlert(), "reloadTaskFailure", LINKS, { ...SETTINGS, tailLines: 2 });

    // Assess
    expect(log.attributes).toMatchObject({
      logtype: "qs_reloadTaskFailedLog",
      environment: "prod",
      qs_taskName: "Reload Sales",
      qs_executingNodeName: "qs-node2",
      qs_executionStatusNum: 8,
      qs_exeuctionStatusText: "FinishedFail",
      qs_executionDuration: { hours: 0, minutes: 1, seconds: 15 },
      qs_scriptLogSize: 4096,
      qs_scriptLogTailCount: 2,
    });
    expect(log.attributes.qs_executionStartTime).toMatchObject({ startTimeUTC: "2026-11-27T01:59:45.000Z" });
    expect(log.messages).toEqual([
      "2026-11-27T01:59:45.000Z\tChanging task state from NeverStarted to Triggered\n" +
        "2026-11-27T02:01:00.000Z\tTask finished with errors\n" +
        "\r\n-------------------------------\r\n\r\n" +
        "line 3\r\nError: boom",
    ]);
  });

  it("says the script log is not available when it could not be fetched, for an aborted reload too", () => {
    // Act
    const log = obsPlatformLog(
      failedAlert({ kind: "reloadTaskAborted", scriptLog: notAvailable("download failed") }),
      "reloadTaskAborted",
      LINKS,
      { ...SETTINGS, tailLines: 20 },
    );

    // Assess
    expect(log.attributes.logtype).toBe("qs_reloadTaskAbortedLog");
    expect(log.attributes.qs_scriptLogTailCount).toBe(0);
    expect(log.messages[0]?.endsWith(`\r\n\r\n${NO_SCRIPT_LOG}`)).toBe(true);
    expect(NO_SCRIPT_LOG).toBe("Script log not available for this reload task.");
  });
});
