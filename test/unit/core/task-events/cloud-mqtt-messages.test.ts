/**
 * A failed or canceled Qlik Cloud reload on the broker: the site's reload topics and switches
 * (`taskEvents.sendToMQTT`), the app's name as the short message and the site's keys where they
 * mean something, with the tenant, in full; the broker destination publishes them.
 */
import { describe, expect, it } from "vitest";
import { notAvailable } from "../../../../core/alerts/index.ts";
import type { BrokerClient } from "../../../../core/ports.ts";
import { cloudMqttMessages } from "../../../../core/task-events/cloud-mqtt-messages.ts";
import { createMqttTaskDestination } from "../../../../core/task-events/index.ts";
import { admitted } from "../../../helpers/admitted-destination.ts";
import { CLOUD_FAILED_ALERT } from "../../../helpers/cloud-reload-alert-fixture.ts";
import { taskEventsSettings } from "../../../helpers/task-alert-fixture.ts";

const settings = (sendToMQTT: Record<string, unknown>) => taskEventsSettings({ sendToMQTT }).sendToMQTT;
const ON = settings({ enable: true });

describe("Qlik Cloud reloads on the broker", () => {
  it("a failed reload: the app's name on the short topic and the run with its tenant in full", () => {
    const [short, full, ...more] = cloudMqttMessages(CLOUD_FAILED_ALERT, ON);
    expect(more).toEqual([]);
    expect(short).toEqual({ topic: "qliksense/task_failure", payload: "Sales" });
    expect(full?.topic).toBe("qliksense/task_failure_full");
    expect(JSON.parse(full?.payload ?? "")).toEqual({
      hostName: "eu.example.qlikcloud.com",
      user: "Bob Reloader",
      taskName: "Sales",
      appName: "Sales",
      appId: "app-1",
      logTimeStamp: "2026-12-05T10:00:05Z",
      executionId: "r-1",
      logMessage: "Field not found: <Amount>",
      tenant: "eu",
      tenantUrl: "https://eu.example.qlikcloud.com",
      spaceName: "Finance",
      status: "FAILED",
      errorCode: "EngineError",
    });
  });

  it("a canceled reload: the aborted topics; the app's id when the tenant did not name the app", () => {
    const canceled = {
      ...CLOUD_FAILED_ALERT,
      kind: "qlikCloudReloadAborted" as const,
      app: notAvailable("HTTP 404"),
    };
    const messages = cloudMqttMessages(canceled, ON);
    expect(messages.map((m) => m.topic)).toEqual(["qliksense/task_aborted", "qliksense/task_aborted_full"]);
    expect(messages[0]?.payload).toBe("app-1");
  });

  it("follows the site's switches: nothing while off, the short message alone without the full one", () => {
    expect(cloudMqttMessages(CLOUD_FAILED_ALERT, settings({ enable: false }))).toEqual([]);
    const short = cloudMqttMessages(
      CLOUD_FAILED_ALERT,
      settings({ enable: true, taskFailureSendFull: false }),
    );
    expect(short.map((m) => m.topic)).toEqual(["qliksense/task_failure"]);
  });

  it("the broker destination takes the cloud kinds and publishes their messages", async () => {
    // Prepare
    const published: { topic: string; payload: string }[] = [];
    const broker: BrokerClient = {
      publish: async (topic, payload) => {
        published.push({ topic, payload });
      },
      close: async () => {},
    };
    const destination = admitted(createMqttTaskDestination({ config: ON, broker }));

    // Act
    const result = await destination.send(CLOUD_FAILED_ALERT);

    // Assess
    expect(destination.handles("qlikCloudReloadFailure")).toBe(true);
    expect(destination.handles("qlikCloudReloadAborted")).toBe(true);
    expect(result).toEqual({ outcome: "sent", messages: 2 });
    expect(published.map((p) => p.topic)).toEqual(["qliksense/task_failure", "qliksense/task_failure_full"]);
  });
});
