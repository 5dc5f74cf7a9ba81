/**
 * Switching a Qlik Cloud tenant on, through a real `steward start`: the failures of the hours its
 * first look-back reads (no cursor yet) are recorded, each as its INFO line and its
 * `reload_task_failed` point in InfluxDB, and sent to no alert destination; a failure after that
 * is alerted by email, Teams and the outgoing webhook as every failure is.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatedTenant } from "../../../local/simulated-cloud/simulated-tenant.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../../local/simulated-cloud/start-simulated-cloud.ts";
import { type CaptureServer, startCaptureServer } from "../../helpers/capture-server.ts";
import { until } from "../../helpers/eventually.ts";
import {
  freeCloudStewardPorts,
  registerWebhooks,
  writeCloudConfig,
} from "../../helpers/qlik-cloud-steward.ts";
import { type SmtpCapture, startSmtpCapture } from "../../helpers/smtp-capture.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import { influxdForSuite } from "../../helpers/suite-influxd.ts";
import { suiteScratchDirectory } from "../../helpers/suite-scratch-directory.ts";

const DATABASE = "steward_first_look_back";
const { skip, influxd } = influxdForSuite();
let cloud: SimulatedCloud;
let smtp: SmtpCapture;
let capture: CaptureServer;
beforeAll(async () => {
  cloud = await startSimulatedCloud({ tenants: 1 });
  smtp = await startSmtpCapture();
  capture = await startCaptureServer();
});
afterAll(async () => {
  await cloud?.stop();
  await smtp?.stop();
  await capture?.stop();
});

/** Emails, Teams posts and webhook calls that name `reloadId`. */
function alertsOf(reloadId: string): number[] {
  const mentioning = (path: string) =>
    capture.requests.filter((request) => request.path === path && request.body.includes(reloadId)).length;
  return [
    smtp.received.filter((email) => (email.mail.text ?? "").includes(reloadId)).length,
    mentioning("/teams"),
    mentioning("/hook"),
  ];
}

async function points(reloadId: string): Promise<number> {
  const answer = await influxd.query(
    `SELECT execution_id, tenant FROM reload_task_failed WHERE execution_id = '${reloadId}'`,
    DATABASE,
  );
  return answer.results[0]?.series?.[0]?.values?.length ?? 0;
}

describe.skipIf(skip)("a Qlik Cloud tenant switched on", () => {
  const scratch = suiteScratchDirectory("steward-first-look-back-");

  it("records the failures of its first look-back without alerting them, and alerts the next one", async () => {
    const tenant = cloud.tenants[0] as SimulatedTenant;
    const old = [
      tenant.finishReload({ status: "FAILED", endMs: Date.now() - 20 * 60_000 }),
      tenant.finishReload({ status: "EXCEEDED_LIMIT", endMs: Date.now() - 40 * 60_000 }),
    ];
    const ports = await freeCloudStewardPorts();
    writeCloudConfig(scratch.root, {
      tenants: [tenant],
      ports,
      outputs: { smtpPort: smtp.port, captureUrl: capture.url, influxPort: influxd.port, database: DATABASE },
    });
    registerWebhooks([tenant], ports.ingest);
    const steward = await startStewardIn(scratch.root);

    for (const reload of old) await until(async () => (await points(reload.id)) === 1, 15_000, 100);
    const now = tenant.finishReload({ status: "FAILED" });
    await tenant.deliver(now, { form: "cloudevents" });
    await until(() => alertsOf(now.id).join() === "1,1,1", 10_000, 50);
    expect(await points(now.id)).toBe(1);
    for (const reload of old) expect(alertsOf(reload.id)).toEqual([0, 0, 0]);
    const line = (reloadId: string) =>
      steward
        .output()
        .split("\n")
        .filter((each) => each.includes(`reloadId=${reloadId}`));
    for (const reload of old)
      expect(line(reload.id)).toEqual([
        expect.stringMatching(
          /info: \[qlik-cloud\] Qlik Cloud reload failed: .* source=poll .*firstLookBack="?recorded, not alerted/,
        ),
      ]);
    expect(steward.output()).toMatch(
      new RegExp(
        `First look-back of a newly polled Qlik Cloud tenant: its failed and canceled runs from before are recorded, not alerted tenant=${tenant.fixture.name}`,
      ),
    );
  }, 60_000);
});
