/**
 * The Qlik Cloud functions catching up after an outage, through their Lambda handlers as their
 * entry points build them, against two simulated tenants, dynalite for the Qlik Cloud, schedule
 * and rate-limit tables, an SMTP server for email, a capture server for Teams and the outgoing
 * webhook, and InfluxDB 1.x for the points. Each tenant is polled once (its cursors stored), then
 * the functions are down: the tenants' reloads fail and their webhook deliveries are answered 503
 * by the stack's API. When the functions are back, the next scheduled poll, a fresh cold start
 * with the cursors it reads from DynamoDB, catches up both tenants: each failed run is alerted
 * once by email, Teams and the webhook and written once as a `reload_task_failed` point with its
 * tenant, and a successful one is handed on without an alert. The late deliveries of the same
 * runs (Qlik's resend of the very bodies that failed) are answered as duplicates and add nothing
 * (no message to the runs' queue, local-aws-sqs), and neither does the poll after.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDynamoCloudCursorStore } from "../../../../core/adapters/aws/dynamo-cloud-cursor-store.ts";
import { createDynamoScheduleLease } from "../../../../core/adapters/aws/dynamo-schedule-lease.ts";
import { createSqsCloudRunQueue } from "../../../../core/adapters/aws/sqs-cloud-run-queue.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { cloudFunctionParts } from "../../../../functions/qlik-cloud/cloud-function-parts.ts";
import { createPollLambda, type PollLambda } from "../../../../functions/qlik-cloud/poll-lambda.ts";
import { webhookFunctionParts } from "../../../../functions/qlik-cloud/webhook-function-parts.ts";
import { createWebhookLambda, type WebhookLambda } from "../../../../functions/qlik-cloud/webhook-lambda.ts";
import type { SimulatedTenant } from "../../../../local/simulated-cloud/simulated-tenant.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../../../local/simulated-cloud/start-simulated-cloud.ts";
import {
  addWebhook,
  type Delivery,
  type SimulatedReload,
} from "../../../../local/simulated-cloud/tenant-state.ts";
import { type CaptureServer, startCaptureServer } from "../../../helpers/capture-server.ts";
import { type DynaliteServer, startDynalite } from "../../../helpers/dynalite-server.ts";
import { until } from "../../../helpers/eventually.ts";
import { cloudFunctionConfig, emfCount, signedDelivery } from "../../../helpers/qlik-cloud-functions.ts";
import { type SmtpCapture, startSmtpCapture } from "../../../helpers/smtp-capture.ts";
import { type LocalSqs, startLocalSqs } from "../../../helpers/sqs-records.ts";
import { influxdForSuite } from "../../../helpers/suite-influxd.ts";

const DATABASE = "steward_cloud_catch_up";
const TABLE = "qlik-cloud";
const SCHEDULES = "schedules";
const RATE_LIMITS = "rate-limit";
const SLOT_MS = 5 * 60_000;
const { skip, influxd } = influxdForSuite();

let cloud: SimulatedCloud;
let tenants: readonly SimulatedTenant[];
let smtp: SmtpCapture;
let capture: CaptureServer;
/** The stack's API while the functions are down: every delivery is answered 503. */
let gateway: CaptureServer;
let dynamo: DynaliteServer;
let sqs: LocalSqs;
let config: string;
/** Embedded-metrics lines written by every function instance. */
const metricLines: string[] = [];

beforeAll(async () => {
  cloud = await startSimulatedCloud({ tenants: 2 });
  tenants = cloud.tenants;
  smtp = await startSmtpCapture();
  capture = await startCaptureServer();
  gateway = await startCaptureServer();
  gateway.respondWith(503);
  dynamo = await startDynalite();
  await dynamo.createTable(TABLE, "pk", "sk");
  await dynamo.createTable(SCHEDULES, "id");
  await dynamo.createTable(RATE_LIMITS, "pk");
  sqs = await startLocalSqs("qlik-cloud-runs");
  for (const tenant of tenants)
    addWebhook(tenant.state, `${gateway.url}/api/v1/qlik-cloud/webhooks/${tenant.fixture.name}`);
});
afterAll(async () => {
  await cloud?.stop();
  await smtp?.stop();
  await capture?.stop();
  await gateway?.stop();
  await dynamo?.close();
  await sqs?.close();
});

/** A function's parts as a cold start builds them. */
const coldStart = () =>
  cloudFunctionParts({
    configText: config,
    dynamo: dynamo.client,
    qlikCloudTable: TABLE,
    rateLimitTable: RATE_LIMITS,
    clock: systemClock,
    writeMetrics: (line) => void metricLines.push(line.trim()),
  });

async function pollColdStart(owner: string): Promise<PollLambda> {
  return createPollLambda({
    input: (await coldStart()).input,
    cursors: createDynamoCloudCursorStore({ client: dynamo.client, tableName: TABLE }),
    lease: createDynamoScheduleLease({ client: dynamo.client, tableName: SCHEDULES, owner }),
    clock: systemClock,
    slotMs: SLOT_MS,
  });
}

const webhookColdStart = (): WebhookLambda =>
  createWebhookLambda(
    webhookFunctionParts({
      configText: config,
      dynamo: dynamo.client,
      qlikCloudTable: TABLE,
      queue: createSqsCloudRunQueue({ client: sqs.client, queueUrl: sqs.queueUrl }),
      clock: systemClock,
      writeMetrics: (line) => void metricLines.push(line.trim()),
    }).input,
    systemClock,
  );

/** The scheduled event of the slot `slots` after now's. */
const scheduled = (slots: number) => ({
  time: new Date(Math.round(Date.now() / SLOT_MS) * SLOT_MS + slots * SLOT_MS).toISOString(),
});

/** What reached each output for `reload`: emails, Teams posts, webhook calls. */
function alertsOf(reload: SimulatedReload) {
  const mentioning = (path: string) =>
    capture.requests.filter((request) => request.path === path && request.body.includes(reload.id));
  return {
    emails: smtp.received.filter((email) => (email.mail.text ?? "").includes(reload.id)),
    teams: mentioning("/teams"),
    hooks: mentioning("/hook"),
  };
}

/** `tenant` of each `reload_task_failed` point of `reload`. */
async function pointTenants(reload: SimulatedReload): Promise<unknown[]> {
  const answer = await influxd.query(
    `SELECT execution_id, tenant FROM reload_task_failed WHERE execution_id = '${reload.id}'`,
    DATABASE,
  );
  return (answer.results[0]?.series?.[0]?.values ?? []).map((row) => row[2]);
}

/** How many emails, Teams posts, webhook calls and points `reload` has. */
async function outputCounts(reload: SimulatedReload): Promise<number[]> {
  const { emails, teams, hooks } = alertsOf(reload);
  return [emails.length, teams.length, hooks.length, (await pointTenants(reload)).length];
}

/** Waits for one alert per channel and one point of a failed `reload`, then checks what they say. */
async function expectAlertedOnce(tenant: SimulatedTenant, reload: SimulatedReload): Promise<void> {
  const name = tenant.fixture.name;
  await until(async () => (await outputCounts(reload)).every((count) => count > 0), 5000, 50);
  expect(await outputCounts(reload)).toEqual([1, 1, 1, 1]);
  expect(await pointTenants(reload)).toEqual([name]);
  const { emails, teams, hooks } = alertsOf(reload);
  expect(emails[0]?.envelopeTo).toEqual(["ops@example.com"]);
  expect(emails[0]?.mail.text).toContain(`Tenant:       ${name} (${tenant.url})`);
  expect(teams[0]?.body).toContain(`/sense/app/${reload.appId}`);
  expect(JSON.parse(hooks[0]?.body ?? "{}")).toMatchObject({
    event: "Qlik Cloud reload failed",
    tenantName: name,
    reloadId: reload.id,
  });
}

const eventCount = (tenant: string, source: string, outcome: string) =>
  emfCount(metricLines, "steward_cloud_events_total", { tenant, source, outcome });

/** A run that ended while the functions were down, and its failed delivery. */
interface MissedRun {
  readonly tenant: SimulatedTenant;
  readonly reload: SimulatedReload;
  readonly delivery: Delivery;
}

describe.skipIf(skip)("Qlik Cloud functions catching up after an outage", () => {
  const missed: MissedRun[] = [];
  let poll: PollLambda;

  beforeAll(async () => {
    config = cloudFunctionConfig(tenants, {
      smtpPort: smtp.port,
      captureUrl: capture.url,
      influxPort: influxd.port,
      database: DATABASE,
    });
    const first = await pollColdStart("poll before the outage");
    // A tenant's first poll records what it reads back without alerting it; the outage comes after.
    expect(await first(scheduled(-20))).toEqual({ "sim-a": "polled", "sim-b": "polled" });
  });

  it("keeps each tenant's reloads while the functions are down, their deliveries failing", async () => {
    for (const tenant of tenants) {
      for (const [status, appIndex] of [
        ["FAILED", 0],
        ["FAILED", 1],
        ["SUCCEEDED", 2],
      ] as const) {
        const reload = tenant.finishReload({ status, appIndex });
        const deliveries = await tenant.deliver(reload);
        expect(deliveries.map((delivery) => [delivery.status, delivery.responseStatus])).toEqual([
          ["fail", 503],
        ]);
        missed.push({ tenant, reload, delivery: deliveries[0] as Delivery });
      }
    }
    expect(gateway.requests).toHaveLength(6);
    expect(smtp.received).toEqual([]);
    expect(capture.requests).toEqual([]);
  });

  it("catches up both tenants at the next scheduled poll, a cold start reading the cursors from DynamoDB: each failed run alerted once per channel, with one point", async () => {
    poll = await pollColdStart("poll after the outage");

    expect(await poll(scheduled(0))).toEqual({ "sim-a": "polled", "sim-b": "polled" });

    for (const { tenant, reload } of missed) {
      if (reload.status === "FAILED") await expectAlertedOnce(tenant, reload);
      else expect(await outputCounts(reload)).toEqual([0, 0, 0, 0]);
    }
    for (const tenant of tenants) {
      expect(eventCount(tenant.fixture.name, "poll", "processed")).toBe(3);
      expect(eventCount(tenant.fixture.name, "webhook", "processed")).toBe(0);
    }
  });

  it("adds nothing when the late deliveries of the same runs arrive", async () => {
    const webhook = webhookColdStart();

    for (const { tenant, delivery } of missed) {
      const name = tenant.fixture.name;
      const answer = await webhook(signedDelivery(name, delivery.body, tenant.fixture.webhookSecret));
      expect(answer.statusCode).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ status: "accepted", outcome: "duplicate" });
    }
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(await sqs.receive(1)).toEqual([]);
    for (const { reload } of missed)
      expect(await outputCounts(reload)).toEqual(reload.status === "FAILED" ? [1, 1, 1, 1] : [0, 0, 0, 0]);
    for (const tenant of tenants) {
      expect(eventCount(tenant.fixture.name, "webhook", "duplicate")).toBe(3);
      expect(eventCount(tenant.fixture.name, "webhook", "processed")).toBe(0);
    }
  });

  it("adds nothing at the poll after", async () => {
    expect(await poll(scheduled(1))).toEqual({ "sim-a": "polled", "sim-b": "polled" });
    await new Promise((resolve) => setTimeout(resolve, 500));

    for (const { reload } of missed)
      expect(await outputCounts(reload)).toEqual(reload.status === "FAILED" ? [1, 1, 1, 1] : [0, 0, 0, 0]);
    for (const tenant of tenants) expect(eventCount(tenant.fixture.name, "poll", "processed")).toBe(3);
    expect(smtp.received).toHaveLength(4);
    expect(capture.requests).toHaveLength(8);
  });
});
