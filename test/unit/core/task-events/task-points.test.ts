import { describe, expect, it } from "vitest";
import { available, notAvailable } from "../../../../core/alerts/task-alert.ts";
import { encodePoint } from "../../../../core/shared/line-protocol.ts";
import {
  successPointSkipped,
  taskPoint,
  writesTaskPoints,
} from "../../../../core/task-events/task-points.ts";
import { failedAlert, STOP_TIME, taskEventsSettings } from "../../../helpers/task-alert-fixture.ts";

const settings = (timeseriesdb: Record<string, unknown>) => taskEventsSettings({ timeseriesdb }).timeseriesdb;
const ON = settings({
  tag: { static: [{ name: "qs_env", value: "lab" }] },
  reloadTaskFailure: {
    enable: true,
    tailScriptLogLines: 2,
    tag: { static: [{ name: "butler_instance", value: "prod-1" }] },
  },
  reloadTaskSuccess: {
    enable: true,
    allReloadTasks: { enable: true },
    headScriptLogLines: 1,
    tailScriptLogLines: 1,
  },
  preloadTaskFailure: { enable: true },
  userSyncTaskSuccess: { enable: true },
});

describe("task points: a failed reload", () => {
  it("has Butler's measurement, tags (the misspelt status text included) and static tags", () => {
    const point = taskPoint(failedAlert(), ON);
    expect(point?.measurement).toBe("reload_task_failed");
    expect(point?.tags).toEqual({
      qs_env: "lab",
      host: "qs-node1",
      user: "INTERNAL/sa_scheduler",
      task_id: "54767e54-af40-4da3-8c3a-a9ead04c7ee9",
      task_name: "Reload Sales",
      app_id: "a9e84152-206c-4b0e-a459-e5c2021f8316",
      app_name: "Sales dashboard",
      log_level: "ERROR",
      task_executingNodeName: "qs-node2",
      task_executionStatusNum: "8",
      task_exeuctionStatusText: "FinishedFail",
      butler_instance: "prod-1",
    });
  });

  it("has Butler's fields with their types: texts as strings, numbers as floats", () => {
    const fields = taskPoint(failedAlert(), ON)?.fields ?? {};
    expect(Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field.kind]))).toEqual({
      log_timestamp: "string",
      execution_id: "string",
      log_message: "string",
      task_executionStartTime_json: "string",
      task_executionStopTime_json: "string",
      task_executionDuration_json: "string",
      task_executionDuration_sec: "float",
      task_executionDuration_min: "float",
      task_executionDuration_h: "float",
      task_scriptLogSize: "float",
      task_scriptLogTailCount: "float",
      scriptLog: "string",
      reload_log: "string",
    });
    expect(fields.task_executionDuration_sec).toEqual({ kind: "float", value: 75 });
    expect(fields.task_executionDuration_json).toEqual({
      kind: "string",
      value: JSON.stringify({ hours: 0, minutes: 1, seconds: 15 }),
    });
    expect(JSON.parse(String(fields.task_executionStopTime_json?.value))).toMatchObject({
      stopTimeUTC: STOP_TIME,
    });
    expect(fields.reload_log?.value).toBe(
      "2026-11-27T01:59:45.000Z\tChanging task state from NeverStarted to Triggered\n2026-11-27T02:01:00.000Z\tTask finished with errors\n\r\n-------------------------------\r\n\r\nline 3\r\nError: boom",
    );
    expect(fields.task_scriptLogTailCount).toEqual({ kind: "float", value: 2 });
  });

  it("is stamped with the run's stop time, so the same execution twice is one point", () => {
    expect(taskPoint(failedAlert(), ON)?.timestampMs).toBe(Date.parse(STOP_TIME));
    expect(encodePoint(taskPoint(failedAlert(), ON)!)).toBe(encodePoint(taskPoint(failedAlert(), ON)!));
  });

  it("falls back to the start time, then to the receive time", () => {
    const base = failedAlert();
    const execution = base.execution.available ? base.execution.value : undefined;
    const noStop = failedAlert({ execution: available({ ...execution!, stopTime: undefined }) });
    expect(taskPoint(noStop, ON)?.timestampMs).toBe(Date.parse("2026-11-27T01:59:45.000Z"));
    const unknown = failedAlert({ execution: notAvailable("down") });
    expect(taskPoint(unknown, ON)?.timestampMs).toBe(base.event.receivedAtMs);
  });

  it("without a script log or execution result: says so, with the same field types", () => {
    const point = taskPoint(
      failedAlert({ execution: notAvailable("down"), scriptLog: notAvailable("404") }),
      ON,
    );
    expect(point?.tags).toMatchObject({ task_executingNodeName: "unknown", task_executionStatusNum: "-1" });
    expect(point?.fields).toMatchObject({
      scriptLog: { kind: "string", value: "Script log not available" },
      task_scriptLogSize: { kind: "float", value: 0 },
    });
    expect(point?.fields.reload_log).toBeUndefined();
  });
});

describe("task points: other kinds", () => {
  it("a successful reload has the head and tail and the head count", () => {
    const success = failedAlert({ kind: "reloadTaskSuccess" });
    const point = taskPoint(success, ON);
    expect(point?.measurement).toBe("reload_task_success");
    expect(point?.fields.task_scriptLogHeadCount).toEqual({ kind: "float", value: 1 });
    expect(String(point?.fields.reload_log?.value)).toContain(
      "---------- SCRIPT LOG HEAD (1 lines) ----------\r\nline 1",
    );
  });

  it("a failed preload task has the event's tags with the app, and no execution fields", () => {
    const point = taskPoint(failedAlert({ kind: "preloadTaskFailure" }), ON);
    expect(point?.measurement).toBe("preload_task_failed");
    expect(Object.keys(point?.tags ?? {}).sort()).toEqual(
      ["app_id", "app_name", "host", "log_level", "qs_env", "task_id", "task_name", "user"].sort(),
    );
    expect(Object.keys(point?.fields ?? {}).sort()).toEqual(["execution_id", "log_message", "log_timestamp"]);
  });

  it("a successful user sync task has no app but the execution tags and fields", () => {
    const point = taskPoint(failedAlert({ kind: "userSyncTaskSuccess" }), ON);
    expect(point?.measurement).toBe("user_sync_task_success");
    expect(point?.tags.app_id).toBeUndefined();
    expect(point?.tags.task_exeuctionStatusText).toBe("FinishedFail");
    expect(point?.fields.task_executionDuration_sec).toEqual({ kind: "float", value: 75 });
  });

  it("an aborted reload has no point", () => {
    expect(taskPoint(failedAlert({ kind: "reloadTaskAborted" }), ON)).toBeUndefined();
    expect(writesTaskPoints("reloadTaskAborted", ON)).toBe(false);
  });

  it("each kind is written only when switched on", () => {
    expect(writesTaskPoints("reloadTaskFailure", ON)).toBe(true);
    expect(writesTaskPoints("preloadTaskSuccess", ON)).toBe(false);
    expect(writesTaskPoints("reloadTaskFailure", settings({}))).toBe(false);
  });
});

describe("task points: which successful reloads are written", () => {
  const success = (customProperties: { name: string; value: string }[]) => {
    const base = failedAlert();
    const task = base.task.available ? base.task.value : undefined;
    return failedAlert({ kind: "reloadTaskSuccess", task: available({ ...task!, customProperties }) });
  };
  const byProperty = settings({
    reloadTaskSuccess: {
      enable: true,
      byCustomProperty: { enable: true, customPropertyName: "Monitor", enabledValue: "Yes" },
    },
  });

  it("every one with allReloadTasks", () => {
    expect(successPointSkipped(success([]), ON)).toBeUndefined();
  });

  it("only those whose custom property has the value, with byCustomProperty", () => {
    expect(successPointSkipped(success([{ name: "Monitor", value: "Yes" }]), byProperty)).toBeUndefined();
    expect(successPointSkipped(success([{ name: "Monitor", value: "No" }]), byProperty)).toMatch(
      /Monitor is not Yes/,
    );
  });

  it("none when neither is on, or when the task could not be read", () => {
    expect(successPointSkipped(success([]), settings({ reloadTaskSuccess: { enable: true } }))).toMatch(
      /neither/,
    );
    const unread = failedAlert({ kind: "reloadTaskSuccess", task: notAvailable("down") });
    expect(successPointSkipped(unread, byProperty)).toMatch(/not available/);
  });
});
