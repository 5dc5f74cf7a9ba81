/**
 * Two simulated Qlik Cloud tenants through a real `steward start`: for each tenant, a signed
 * failed-reload event becomes one run handed on (one INFO line, counted `processed`) within 5 s;
 * the same event again, and the same run found by polling, add nothing but a `duplicate`; a bad
 * signature is answered 401, counted, and hands nothing on; and runs whose deliveries failed while
 * Steward was stopped are found by polling at the restart, each handed on once. `/status` shows
 * each tenant's last run, cursors and token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhookBody } from "../../../core/qlik-cloud/webhook-signature.ts";
import { reloadEventBody } from "../../../local/simulated-cloud/reload-event-bodies.ts";
import { sendSignedEvent } from "../../../local/simulated-cloud/signed-event-sender.ts";
import type { SimulatedTenant } from "../../../local/simulated-cloud/simulated-tenant.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../../local/simulated-cloud/start-simulated-cloud.ts";
import type { SimulatedReload } from "../../../local/simulated-cloud/tenant-state.ts";
import { until } from "../../helpers/eventually.ts";
import {
  type CloudStewardPorts,
  cloudEventCount,
  cloudStatus,
  freeCloudStewardPorts,
  registerWebhooks,
  webhookUrl,
  writeCloudConfig,
} from "../../helpers/qlik-cloud-steward.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import type { StewardProcess } from "../../helpers/steward-process.ts";
import { suiteScratchDirectory } from "../../helpers/suite-scratch-directory.ts";

let cloud: SimulatedCloud;
let tenants: readonly SimulatedTenant[];
beforeAll(async () => {
  cloud = await startSimulatedCloud({ tenants: 2 });
  tenants = cloud.tenants;
});
afterAll(() => cloud?.stop());

/** The INFO lines of runs handed on for `reloadId`. */
const handedLines = (steward: StewardProcess, reloadId: string) =>
  steward
    .output()
    .split("\n")
    .filter((line) => line.includes("Qlik Cloud reload") && line.includes(`reloadId=${reloadId}`));

describe("Qlik Cloud tenants through `steward start`", () => {
  const scratch = suiteScratchDirectory("steward-qlik-cloud-");
  let dir: string;
  let ports: CloudStewardPorts;
  let steward: StewardProcess;

  beforeAll(async () => {
    dir = scratch.root;
    ports = await freeCloudStewardPorts();
    writeCloudConfig(dir, { tenants, ports });
    registerWebhooks(tenants, ports.ingest);
    steward = await startStewardIn(dir, { onTestFinished: () => undefined });
  });
  afterAll(() => {
    if (steward?.child.exitCode === null) steward.child.kill("SIGKILL");
  });

  it("hands on a signed failed-reload event of each tenant once, within 5 s, however often it comes", async () => {
    for (const tenant of tenants) {
      const name = tenant.fixture.name;
      const reload = tenant.finishReload({ status: "FAILED" });
      const sentAt = Date.now();
      const [first] = await tenant.deliver(reload, { form: "cloudevents" });
      await until(() => handedLines(steward, reload.id).length === 1, 5000, 20);
      expect(Date.now() - sentAt).toBeLessThan(5000);
      expect(first).toMatchObject({ status: "success", responseStatus: 202 });
      expect(handedLines(steward, reload.id)[0]).toMatch(
        new RegExp(
          `info: \\[qlik-cloud\\] Qlik Cloud reload failed: app ${reload.appId} tenant=${name} reloadId=${reload.id} status=FAILED errorCode=EngineReloadError`,
        ),
      );
      await until(
        async () => (await cloudEventCount(ports.scrape, name, "webhook", "processed")) === 1,
        5000,
        50,
      );

      const again = await tenant.deliver(reload, { form: "legacy", times: 2 });
      expect(again.map((delivery) => delivery.responseStatus)).toEqual([200, 200]);
      await until(
        async () => (await cloudEventCount(ports.scrape, name, "poll", "duplicate")) === 1,
        15_000,
        100,
      );

      expect(await cloudEventCount(ports.scrape, name, "webhook", "duplicate")).toBe(2);
      expect(await cloudEventCount(ports.scrape, name, "webhook", "processed")).toBe(1);
      expect(await cloudEventCount(ports.scrape, name, "poll", "processed")).toBe(0);
      expect(handedLines(steward, reload.id)).toHaveLength(1);
    }
  });

  it("answers a bad signature 401, counts it, and hands nothing on", async () => {
    const [tenant] = tenants as [SimulatedTenant];
    const reload = tenant.finishReload({ status: "FAILED" });
    const body = JSON.stringify(reloadEventBody(tenant.fixture, reload, "cloudevents"));

    const wrong = await sendSignedEvent({
      url: webhookUrl(ports.ingest, "sim-a"),
      body,
      secret: "",
      signature: signWebhookBody(body, "not-the-secret-0123456789abcdef-xyz"),
    });
    const missing = await sendSignedEvent({ url: webhookUrl(ports.ingest, "sim-a"), body, secret: "" });

    expect([wrong.status, missing.status]).toEqual([401, 401]);
    expect(await cloudEventCount(ports.scrape, "sim-a", "webhook", "bad_signature")).toBe(2);
    expect(steward.output()).toContain(
      "A Qlik Cloud webhook delivery had a missing or wrong Qlik-Signature; refused 401 tenant=sim-a",
    );
    expect(handedLines(steward, reload.id)).toEqual([]);
    // The run is the tenant's all the same: polling finds it (and hands it on once).
    await until(() => handedLines(steward, reload.id).length === 1, 15_000, 100);
  });

  it("shows each tenant's last run, cursors and token on /status", async () => {
    const status = await cloudStatus(ports.ui);
    for (const tenant of tenants) {
      const shown = status[tenant.fixture.name];
      expect(shown).toMatchObject({
        url: tenant.url,
        webhook: "on",
        poll: "every 5 seconds",
        credential: "OAuth client",
        lastRun: { kind: "reloadTaskFailure", status: "FAILED" },
        cursors: { reloads: { lagSeconds: expect.any(Number) }, audits: { lagSeconds: expect.any(Number) } },
        token: { expiresAt: expect.any(String) },
      });
      expect(JSON.stringify(shown)).not.toContain(tenant.fixture.clientSecret);
    }
  });

  it("finds by polling at a restart the runs whose deliveries failed while it was stopped, each once", async () => {
    steward.child.kill("SIGTERM");
    expect((await steward.exited()).code).toBe(0);
    const missed: { tenant: string; reload: SimulatedReload }[] = [];
    for (const tenant of tenants) {
      for (const status of ["FAILED", "CANCELED", "SUCCEEDED"] as const) {
        const reload = tenant.finishReload({ status });
        const deliveries = await tenant.deliver(reload);
        expect(deliveries.map((delivery) => delivery.status)).toEqual(["fail"]);
        missed.push({ tenant: tenant.fixture.name, reload });
      }
    }

    steward = await startStewardIn(dir, {
      onTestFinished: () => undefined,
      args: ["--log-level", "verbose"],
    });
    await until(
      () => missed.every(({ reload }) => handedLines(steward, reload.id).length === 1),
      15_000,
      100,
    );
    await new Promise((resolve) => setTimeout(resolve, 6000));

    for (const { reload } of missed) expect(handedLines(steward, reload.id)).toHaveLength(1);
    for (const tenant of tenants) {
      expect(await cloudEventCount(ports.scrape, tenant.fixture.name, "poll", "processed")).toBe(3);
      expect(await cloudEventCount(ports.scrape, tenant.fixture.name, "webhook", "processed")).toBe(0);
    }
    // What the first start handed on is not handed on again.
    expect(steward.output()).not.toMatch(/Qlik Cloud reload failed: .* source=webhook/);
  });
});
