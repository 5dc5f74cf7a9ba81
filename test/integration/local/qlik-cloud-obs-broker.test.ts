/**
 * A Qlik Cloud tenant's failed reload through a real `steward start` reaching the observability
 * platform and the broker as the site's failed reloads do: one signed delivery posts one event
 * (`qs_reloadTaskFailedEvent`) and one log entry (`qs_reloadTaskFailedLog`) with the tenant to a
 * capture server standing in for the platform's event and log APIs, and publishes the app's
 * name on `qliksense/task_failure` and the run in full on `qliksense/task_failure_full` to
 * Debian's mosquitto, with the site's task-event listener off; the same delivery again adds
 * nothing.
 */
import { connect, type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedTenant } from "../../../local/simulated-cloud/simulated-tenant.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../../local/simulated-cloud/start-simulated-cloud.ts";
import { type CaptureServer, startCaptureServer } from "../../helpers/capture-server.ts";
import { until } from "../../helpers/eventually.ts";
import { type Mosquitto, skipWithoutMosquitto, startMosquitto } from "../../helpers/mosquitto.ts";
import {
  cloudEventCount,
  freeCloudStewardPorts,
  registerWebhooks,
  writeCloudConfig,
} from "../../helpers/qlik-cloud-steward.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import { suiteScratchDirectory } from "../../helpers/suite-scratch-directory.ts";

const skip = skipWithoutMosquitto();

let cloud: SimulatedCloud;
let capture: CaptureServer;
let broker: Mosquitto;
let subscriber: MqttClient;
const published: { topic: string; payload: string }[] = [];

beforeAll(async () => {
  if (skip) return;
  [cloud, capture, broker] = await Promise.all([
    startSimulatedCloud({ tenants: 1 }),
    startCaptureServer(),
    startMosquitto(),
  ]);
  subscriber = connect(`mqtt://127.0.0.1:${broker.port}`);
  await new Promise<void>((resolve) => subscriber.on("connect", () => resolve()));
  await subscriber.subscribeAsync("qliksense/#");
  subscriber.on("message", (topic, payload) => published.push({ topic, payload: payload.toString() }));
});
afterAll(async () => {
  await subscriber?.endAsync();
  await Promise.all([cloud?.stop(), capture?.stop(), broker?.stop()]);
});

const sendTo = { always: { enable: true, account: ["Prod"] } };

function extraSections() {
  return {
    thirdPartyToolsCredentials: {
      obsPlatform: [{ accountName: "Prod", insertApiKey: "NRII-prod-secret", accountId: 1111 }],
    },
    incidentTool: {
      newRelic: {
        enable: true,
        url: { event: `${capture.url}/`, log: `${capture.url}/log/v1` },
        reloadTaskFailure: {
          destination: {
            event: { enable: true, sendToAccount: sendTo },
            log: { enable: true, sendToAccount: sendTo },
          },
        },
      },
    },
    mqttConfig: { enable: true, brokerHost: "127.0.0.1", brokerPort: broker.port },
    taskEvents: { enable: false, sendToMQTT: { enable: true } },
  };
}

describe.skipIf(skip)(
  "a Qlik Cloud tenant's failed reload on the observability platform and the broker",
  () => {
    const scratch = suiteScratchDirectory("steward-cloud-obs-broker-");

    it("posts one event and one log entry with the tenant, publishes the broker's messages, and a duplicate adds nothing", async () => {
      // Prepare
      const tenant = cloud.tenants[0] as SimulatedTenant;
      const ports = await freeCloudStewardPorts();
      writeCloudConfig(scratch.root, { tenants: [tenant], ports, poll: false, extra: extraSections() });
      registerWebhooks([tenant], ports.ingest);
      await startStewardIn(scratch.root);
      const failed = tenant.finishReload({ status: "FAILED" });

      // Act
      await tenant.deliver(failed, { form: "cloudevents" });
      await until(() => capture.requests.length >= 2 && published.length >= 2, 15_000, 50);
      await tenant.deliver(failed, { form: "cloudevents" });
      await until(
        async () => (await cloudEventCount(ports.scrape, tenant.fixture.name, "webhook", "duplicate")) === 1,
        10_000,
        50,
      );
      // The duplicate is known before its answer and handed on to nothing; a moment shows any late post.
      await new Promise((resolve) => setTimeout(resolve, 1000));

      // Assess
      const events = capture.requests.filter((request) => !request.path.startsWith("/log/v1"));
      const logs = capture.requests.filter((request) => request.path.startsWith("/log/v1"));
      expect(events).toHaveLength(1);
      expect(logs).toHaveLength(1);
      const [event] = JSON.parse(events[0]?.body ?? "[]") as Record<string, unknown>[];
      expect(event).toMatchObject({
        eventType: "qs_reloadTaskFailedEvent",
        qs_tenant: tenant.fixture.name,
        qs_appId: failed.appId,
        qs_reloadId: failed.id,
        qs_status: "FAILED",
      });
      const [entry] = JSON.parse(logs[0]?.body ?? "[]") as {
        common: { attributes: Record<string, unknown> };
      }[];
      expect(entry?.common.attributes).toMatchObject({
        logtype: "qs_reloadTaskFailedLog",
        qs_tenant: tenant.fixture.name,
        qs_reloadId: failed.id,
      });
      expect(published.map((message) => message.topic)).toEqual([
        "qliksense/task_failure",
        "qliksense/task_failure_full",
      ]);
      const full = JSON.parse(published[1]?.payload ?? "{}") as Record<string, unknown>;
      expect(full).toMatchObject({
        tenant: tenant.fixture.name,
        appId: failed.appId,
        executionId: failed.id,
      });
      expect(published[0]?.payload).toBe(full.appName);
    });
  },
);
