/**
 * The settings of task starts from the broker (`mqttConfig.subscriptionRootTopic`,
 * `taskStartTopic`) and of the start filter (`startTaskFilter`): their forms, and the rules
 * between them and the platform settings.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkConfigFile } from "../../../../core/adapters/local/config-file.ts";
import { lines, parseOk, problemsOf } from "./helpers.ts";

const TASK = "7552d9fc-d1bb-4975-9a38-18357de531ea";
const broker = (topics: Record<string, unknown>) => ({ enable: true, brokerHost: "127.0.0.1", ...topics });
const platform = { host: "sense.example.com" };

describe("task starts from the broker: settings", () => {
  it("takes Butler's topics as written, with a platform to start the tasks on", () => {
    const config = parseOk({
      mqttConfig: broker({ subscriptionRootTopic: "qliksense/#", taskStartTopic: "qliksense/start_task" }),
      platform,
    });
    expect(config.mqttConfig.subscriptionRootTopic).toBe("qliksense/#");
    expect(config.mqttConfig.taskStartTopic).toBe("qliksense/start_task");
  });

  it("needs platform.host when a start topic is set", () => {
    expect(problemsOf({ mqttConfig: broker({ taskStartTopic: "qliksense/start_task" }) })).toEqual([
      "Service.platform.host: required when mqttConfig.taskStartTopic is set",
    ]);
  });

  it("refuses a start topic that does not fall under the subscription", () => {
    expect(
      problemsOf({
        mqttConfig: broker({
          subscriptionRootTopic: "qliksense/+/x",
          taskStartTopic: "qliksense/start_task",
        }),
        platform,
      }),
    ).toEqual([
      'Service.mqttConfig.taskStartTopic: is not under mqttConfig.subscriptionRootTopic "qliksense/+/x": no message published to it would arrive',
    ]);
  });

  it("refuses a start topic with wildcards and a subscription whose wildcards are misplaced", () => {
    expect(
      problemsOf({
        mqttConfig: broker({ subscriptionRootTopic: "qliksense/#/x", taskStartTopic: "qliksense/+" }),
        platform,
      }),
    ).toEqual([
      "Service.mqttConfig.subscriptionRootTopic: '#' must stand alone in the last level of a topic filter (e.g. qliksense/#)",
      "Service.mqttConfig.taskStartTopic: topic must not contain the wildcards '#' or '+'",
    ]);
  });

  it("checks nothing of the topics while the broker connection is off", () => {
    expect(problemsOf({ mqttConfig: { enable: false, taskStartTopic: "a/#" } })).toEqual([]);
  });

  it("needs the platform's client certificates once tasks are started from the broker", async () => {
    const dir = await mkdtemp(join(tmpdir(), "steward-task-starts-config-"));
    try {
      const path = join(dir, "steward.yaml");
      await writeFile(
        path,
        [
          "Service:",
          "  platform: { host: sense.example.com }",
          "  mqttConfig: { enable: true, taskStartTopic: qliksense/start_task }",
        ].join("\n"),
      );
      const result = await checkConfigFile(path, {});
      expect(result.ok ? [] : lines(result.problems)).toEqual(
        ["clientCert", "clientCertCA", "clientCertKey"].map(
          (key) =>
            `Service.cert.${key}: required (a certificate file) by the features that reach the platform`,
        ),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("startTaskFilter: settings", () => {
  it("is off by default, with nothing listed", () => {
    expect(parseOk({}).startTaskFilter).toEqual({
      enable: false,
      allowTask: { taskId: [], tag: [], customProperty: [] },
    });
  });

  it("takes Butler's lists, and lists whose items are all commented out", () => {
    const config = parseOk({
      startTaskFilter: {
        enable: true,
        allowTask: { taskId: [TASK], tag: null, customProperty: [{ name: "taskGroup", value: "tasks1" }] },
      },
    });
    expect(config.startTaskFilter.allowTask).toEqual({
      taskId: [TASK],
      tag: [],
      customProperty: [{ name: "taskGroup", value: "tasks1" }],
    });
  });

  it("refuses a task id that is not a GUID, which could never name a task", () => {
    expect(problemsOf({ startTaskFilter: { enable: true, allowTask: { taskId: ["task-1"] } } })).toEqual([
      "Service.startTaskFilter.allowTask.taskId[0]: must be a task id (a GUID such as 7552d9fc-d1bb-4975-9a38-18357de531ea)",
    ]);
  });
});
