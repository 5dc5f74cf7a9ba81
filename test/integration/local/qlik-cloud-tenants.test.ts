/**
 * Two simulated Qlik Cloud tenants through a real `steward start`: for each tenant, a signed
 * failed-reload event becomes one run handed on (one INFO line, counted `processed`) and one
 * email, one Teams card, one outgoing webhook call and one `reload_task_failed` point tagged with
 * the tenant in InfluxDB, within 5 s; the same event again, and the same run found by polling, add
 * nothing but a `duplicate`; a bad signature is answered 401, counted, and hands nothing on; and
 * runs whose deliveries failed while Steward was stopped are found by polling at the restart,
 * each handed on and alerted once. `/status` shows
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
import { type CaptureServer, startCaptureServer } from "../../helpers/capture-server.ts";
import { until } from "../../helpers/eventually.ts";
import { sampleValue } from "../../helpers/prometheus-text.ts";
import {
  type CloudStewardPorts,
  cloudEventCount,
  cloudStatus,
  freeCloudStewardPorts,
  registerWebhooks,
  scrape,
  webhookUrl,
  writeCloudConfig,
} from "../../helpers/qlik-cloud-steward.ts";
import { type SmtpCapture, startSmtpCapture } from "../../helpers/smtp-capture.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import type { StewardProcess } from "../../helpers/steward-process.ts";
import { influxdForSuite } from "../../helpers/suite-influxd.ts";
import { suiteScratchDirectory } from "../../helpers/suite-scratch-directory.ts";

const DATABASE = "steward_cloud";
const { skip, influxd } = influxdForSuite();
let cloud: SimulatedCloud;
let tenants: readonly SimulatedTenant[];
let smtp: SmtpCapture;
let capture: CaptureServer;
beforeAll(async () => {
  cloud = await startSimulatedCloud({ tenants: 2 });
  tenants = cloud.tenants;
  smtp = await startSmtpCapture();
  capture = await startCaptureServer();
});
afterAll(async () => {
  await cloud?.stop();
  await smtp?.stop();
  await capture?.stop();
});

/** What reached each output for `reloadId`: emails, Teams posts, webhook calls. */
function alertsOf(reloadId: string) {
  const mentioning = (path: string) =>
    capture.requests.filter((request) => request.path === path && request.body.includes(reloadId));
  return {
    emails: smtp.received.filter((email) => (email.mail.text ?? "").includes(reloadId)),
    teams: mentioning("/teams"),
    hooks: mentioning("/hook"),
  };
}

/** `tenant` of each `reload_task_failed` point of `reloadId`. */
async function pointTenants(reloadId: string): Promise<unknown[]> {
  const answer = await influxd.query(
    `SELECT execution_id, tenant FROM reload_task_failed WHERE execution_id = '${reloadId}'`,
    DATABASE,
  );
  return (answer.results[0]?.series?.[0]?.values ?? []).map((row) => row[2]);
}

/**
 * Resolves just after Steward's next poll of `tenant` (its reloads and audits lists both asked),
 * so that the next poll is a whole interval away. A reload finished and delivered right then
 * reaches Steward by its webhook first; finished just before a poll, polling could take it first
 * and the delivery would rightly be answered as a duplicate.
 */
async function justAfterAPoll(tenant: SimulatedTenant): Promise<void> {
  const count = (list: string) =>
    tenant.state.calls.filter((call) => call.includes(`/api/v1/${list}`)).length;
  const before = { reloads: count("reloads"), audits: count("audits") };
  await until(() => count("reloads") > before.reloads && count("audits") > before.audits, 15_000, 10);
  // The round's answers are read and its cursors written before the next round is scheduled.
  await new Promise((resolve) => setTimeout(resolve, 100));
}

/** The INFO lines of runs handed on for `reloadId`. */
const handedLines = (steward: StewardProcess, reloadId: string) =>
  steward
    .output()
    .split("\n")
    .filter((line) => line.includes("Qlik Cloud reload") && line.includes(`reloadId=${reloadId}`));

/** Waits up to 5 s for one email, Teams card, webhook call and point of `reload`, then checks what they say. */
async function expectAlertedOnce(tenant: SimulatedTenant, reload: SimulatedReload): Promise<void> {
  const name = tenant.fixture.name;
  const reachedAll = async () => {
    const reached = alertsOf(reload.id);
    const points = await pointTenants(reload.id);
    return (
      [reached.emails.length, reached.teams.length, reached.hooks.length, points.length].join() === "1,1,1,1"
    );
  };
  await until(reachedAll, 5000, 50);
  expect(await pointTenants(reload.id)).toEqual([name]);
  const { emails, teams, hooks } = alertsOf(reload.id);
  expect(emails[0]?.envelopeTo).toEqual(["ops@example.com"]);
  expect(emails[0]?.mail.text).toContain(`Tenant:       ${name} (${tenant.url})`);
  expect(teams[0]?.body).toContain(`/sense/app/${reload.appId}`);
  expect(JSON.parse(hooks[0]?.body ?? "{}")).toMatchObject({
    event: "Qlik Cloud reload failed",
    tenantName: name,
    appId: reload.appId,
    reloadId: reload.id,
  });
}

/** At least the two tenants' failed reloads, sent by each destination, on /metrics and /status. */
async function expectAlertsCounted(ports: CloudStewardPorts): Promise<void> {
  const samples = await scrape(ports.scrape);
  const status = (await (await fetch(`http://127.0.0.1:${ports.ui}/status`)).json()) as {
    alertDestinations: Record<string, { sent: number; failed: number }>;
  };
  for (const destination of ["email", "teams", "webhook"]) {
    const labels = { destination, kind: "qlikCloudReloadFailure", outcome: "sent" };
    expect(sampleValue(samples, "steward_alerts_total", labels), destination).toBeGreaterThanOrEqual(2);
    const shown = status.alertDestinations[`${destination} (qlikCloudReloadFailure)`];
    expect(shown?.sent, destination).toBeGreaterThanOrEqual(2);
    expect(shown?.failed, destination).toBe(0);
  }
}

/**
 * One signed failed-reload delivery of `tenant`, then the same event twice more and the polls after
 * them: the run is handed on and alerted once, within 5 s, whichever way took it first.
 */
async function expectDeliveredOnce(
  tenant: SimulatedTenant,
  steward: StewardProcess,
  ports: CloudStewardPorts,
) {
  const name = tenant.fixture.name;
  /** The tenant's counts of runs by way in and outcome, now. */
  const counts = async () => ({
    webhookProcessed: await cloudEventCount(ports.scrape, name, "webhook", "processed"),
    webhookDuplicate: await cloudEventCount(ports.scrape, name, "webhook", "duplicate"),
    pollProcessed: await cloudEventCount(ports.scrape, name, "poll", "processed"),
    pollDuplicate: await cloudEventCount(ports.scrape, name, "poll", "duplicate"),
  });
  await justAfterAPoll(tenant);
  const before = await counts();
  const reload = tenant.finishReload({ status: "FAILED" });
  const sentAt = Date.now();
  const [first] = await tenant.deliver(reload, { form: "cloudevents" });
  await until(() => handedLines(steward, reload.id).length === 1, 5000, 20);
  await expectAlertedOnce(tenant, reload);
  expect(Date.now() - sentAt).toBeLessThan(5000);
  // The delivery comes just after a poll, but a poll that a loaded machine ran late can still be
  // followed at once by the next one, which then finds the run first: whichever way took it
  // processed it (the delivery is then answered as a duplicate), and the run is handed on once.
  const byWebhook = first?.responseStatus === 202;
  expect(first).toMatchObject({ status: "success", responseStatus: byWebhook ? 202 : 200 });
  expect(handedLines(steward, reload.id)[0]).toMatch(
    new RegExp(
      `info: \\[qlik-cloud\\] Qlik Cloud reload failed: app ${reload.appId} tenant=${name} reloadId=${reload.id} status=FAILED errorCode=EngineReloadError`,
    ),
  );
  await until(
    async () =>
      (await cloudEventCount(ports.scrape, name, byWebhook ? "webhook" : "poll", "processed")) ===
      (byWebhook ? before.webhookProcessed : before.pollProcessed) + 1,
    5000,
    50,
  );

  const again = await tenant.deliver(reload, { form: "legacy", times: 2 });
  expect(again.map((delivery) => delivery.responseStatus)).toEqual([200, 200]);
  // Taken by its webhook, the run is found again by the next poll, as a duplicate.
  if (byWebhook)
    await until(
      async () =>
        (await cloudEventCount(ports.scrape, name, "poll", "duplicate")) === before.pollDuplicate + 1,
      15_000,
      100,
    );

  const after = await counts();
  expect(after.webhookDuplicate - before.webhookDuplicate).toBe(byWebhook ? 2 : 3);
  expect(after.webhookProcessed - before.webhookProcessed).toBe(byWebhook ? 1 : 0);
  expect(after.pollProcessed - before.pollProcessed).toBe(byWebhook ? 0 : 1);
  expect(handedLines(steward, reload.id)).toHaveLength(1);
  await expectAlertedOnce(tenant, reload);
}

describe.skipIf(skip)("Qlik Cloud tenants through `steward start`", () => {
  const scratch = suiteScratchDirectory("steward-qlik-cloud-");
  let dir: string;
  let ports: CloudStewardPorts;
  let steward: StewardProcess;

  beforeAll(async () => {
    dir = scratch.root;
    ports = await freeCloudStewardPorts();
    writeCloudConfig(dir, {
      tenants,
      ports,
      outputs: { smtpPort: smtp.port, captureUrl: capture.url, influxPort: influxd.port, database: DATABASE },
    });
    registerWebhooks(tenants, ports.ingest);
    steward = await startStewardIn(dir, { onTestFinished: () => undefined });
  });
  afterAll(() => {
    if (steward?.child.exitCode === null) steward.child.kill("SIGKILL");
  });

  it("hands on and alerts a signed failed-reload event of each tenant once, within 5 s, however often it comes", async () => {
    for (const tenant of tenants) await expectDeliveredOnce(tenant, steward, ports);
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
    const nothing = alertsOf(reload.id);
    expect([nothing.emails.length, nothing.teams.length, nothing.hooks.length]).toEqual([0, 0, 0]);
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

  it("counts the cloud alerts on /metrics and /status as the site's, per destination", async () => {
    await expectAlertsCounted(ports);
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

    for (const { reload } of missed) {
      expect(handedLines(steward, reload.id)).toHaveLength(1);
      // Failed runs are alerted once; canceled ones only where reloadTaskAborted is on (it is not).
      const reached = alertsOf(reload.id);
      expect(reached.emails).toHaveLength(reload.status === "FAILED" ? 1 : 0);
      expect(reached.hooks).toHaveLength(reload.status === "FAILED" ? 1 : 0);
    }
    for (const tenant of tenants) {
      expect(await cloudEventCount(ports.scrape, tenant.fixture.name, "poll", "processed")).toBe(3);
      expect(await cloudEventCount(ports.scrape, tenant.fixture.name, "webhook", "processed")).toBe(0);
    }
    // What the first start handed on is not handed on again.
    expect(steward.output()).not.toMatch(/Qlik Cloud reload failed: .* source=webhook/);
  });
});
