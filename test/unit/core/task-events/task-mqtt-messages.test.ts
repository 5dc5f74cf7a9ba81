import { describe, expect, it } from "vitest";
import { notAvailable } from "../../../../core/alerts/task-alert.ts";
import { taskMqttMessages } from "../../../../core/task-events/task-mqtt-messages.ts";
import { failedAlert, taskEventsSettings } from "../../../helpers/task-alert-fixture.ts";

const settings = (sendToMQTT: Record<string, unknown>) => taskEventsSettings({ sendToMQTT }).sendToMQTT;
const ON = settings({ enable: true });

describe("task broker messages", () => {
  it("a failed reload: the task name on the short topic and the event in full", () => {
    const [short, full] = taskMqttMessages(failedAlert(), ON);
    expect(short).toEqual({ topic: "qliksense/task_failure", payload: "Reload Sales" });
    expect(full?.topic).toBe("qliksense/task_failure_full");
    expect(JSON.parse(full?.payload ?? "")).toMatchObject({
      hostName: "qs-node1",
      user: "INTERNAL\\sa_scheduler",
      taskName: "Reload Sales",
      taskId: "54767e54-af40-4da3-8c3a-a9ead04c7ee9",
      appName: "Sales dashboard",
      appId: "a9e84152-206c-4b0e-a459-e5c2021f8316",
      logTimeStamp: "2026-11-27 03:01:00,345",
      logLevel: "ERROR",
      executionId: "32342464-c525-45c4-b755-1a2b55d4e7f1",
      logMessage: "Task finished with state FinishedFail. Max retries reached",
      qs_appTags: ["sales"],
      qs_appCustomProperties: [],
      qs_taskTags: ["nightly"],
      qs_taskCustomProperties: [{ name: "Department", value: "Finance" }],
      qs_taskMetadata: { name: "Reload Sales" },
    });
    expect(JSON.parse(full?.payload ?? "")).not.toHaveProperty("qs_appMetadata");
  });

  it("an aborted reload: its own topics, and the app's metadata in full", () => {
    const messages = taskMqttMessages(failedAlert({ kind: "reloadTaskAborted" }), ON);
    expect(messages.map((m) => m.topic)).toEqual(["qliksense/task_aborted", "qliksense/task_aborted_full"]);
    expect(JSON.parse(messages[1]?.payload ?? "")).toMatchObject({
      qs_appMetadata: { name: "Sales dashboard" },
    });
  });

  it("only the short message when the full one is off, on the configured topics", () => {
    const config = settings({ enable: true, taskFailureSendFull: false, taskFailureTopic: "ops/failed" });
    expect(taskMqttMessages(failedAlert(), config)).toEqual([
      { topic: "ops/failed", payload: "Reload Sales" },
    ]);
  });

  it("still goes out when the repository could not tell the task or app", () => {
    const alert = failedAlert({ task: notAvailable("down"), app: notAvailable("down") });
    const [short, full] = taskMqttMessages(alert, ON);
    expect(short?.payload).toBe("Reload Sales");
    expect(JSON.parse(full?.payload ?? "")).toMatchObject({
      qs_taskMetadata: null,
      qs_taskTags: [],
      appName: "Sales dashboard",
    });
  });

  it("nothing for successes and other task types, or when off", () => {
    expect(taskMqttMessages(failedAlert({ kind: "reloadTaskSuccess" }), ON)).toEqual([]);
    expect(taskMqttMessages(failedAlert({ kind: "preloadTaskFailure" }), ON)).toEqual([]);
    expect(taskMqttMessages(failedAlert(), settings({}))).toEqual([]);
  });
});
