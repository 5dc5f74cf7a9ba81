/**
 * The Qlik Cloud webhook, hand-on and polling functions through their Lambda handlers, as their
 * entry points build them, against two simulated tenants, dynalite for the Qlik Cloud and schedule
 * tables, local-aws-sqs for the runs' queue, a capture server for the outgoing webhook and
 * InfluxDB 1.x for the points. For each tenant: a signed failed-reload event is answered 202 once
 * it is stored and its key queued, before any alert; the hand-on function, given the queue's
 * message, makes one webhook call and one point tagged with the tenant; the same event again
 * (from another instance, base64-encoded by the gateway) queues and adds nothing, and neither does
 * the message delivered again; a bad signature is 401, sends nothing and is
 * counted; polling hands on once a run whose delivery was missed, and adds nothing for a run the
 * webhook took; two invocations for one schedule slot poll a tenant once; a run an instance
 * stored but did not hand on (its time ran out) is handed on once by the next poll. Hostile or
 * unlucky deliveries: an unknown tenant 404, another method 405, a body over 1 MiB 413, a run
 * DynamoDB did not store 503 with Retry-After, each sending nothing. The alerts' rate limit holds
 * across instances: two failed runs of one app, handed on by two instances within the window,
 * are alerted once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDynamoCloudCursorStore } from "../../../../core/adapters/aws/dynamo-cloud-cursor-store.ts";
import { createDynamoCloudRunInbox } from "../../../../core/adapters/aws/dynamo-cloud-run-inbox.ts";
import { createDynamoScheduleLease } from "../../../../core/adapters/aws/dynamo-schedule-lease.ts";
import { createSqsCloudRunQueue } from "../../../../core/adapters/aws/sqs-cloud-run-queue.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { cloudFunctionParts } from "../../../../functions/qlik-cloud/cloud-function-parts.ts";
import { PENDING_AFTER_MS } from "../../../../functions/qlik-cloud/cloud-qlik-input.ts";
import { createHandOnLambda, type HandOnLambda } from "../../../../functions/qlik-cloud/hand-on-lambda.ts";
import { createPollLambda, type PollLambda } from "../../../../functions/qlik-cloud/poll-lambda.ts";
import { webhookFunctionParts } from "../../../../functions/qlik-cloud/webhook-function-parts.ts";
import { createWebhookLambda, type WebhookLambda } from "../../../../functions/qlik-cloud/webhook-lambda.ts";
import { reloadEventBody } from "../../../../local/simulated-cloud/reload-event-bodies.ts";
import type { SimulatedTenant } from "../../../../local/simulated-cloud/simulated-tenant.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../../../local/simulated-cloud/start-simulated-cloud.ts";
import type { SimulatedReload } from "../../../../local/simulated-cloud/tenant-state.ts";
import { type CaptureServer, startCaptureServer } from "../../../helpers/capture-server.ts";
import { type DynaliteServer, startDynalite } from "../../../helpers/dynalite-server.ts";
import { until } from "../../../helpers/eventually.ts";
import {
  cloudFunctionConfig,
  consumeQueued,
  emfCount,
  signedDelivery,
} from "../../../helpers/qlik-cloud-functions.ts";
import { type LocalSqs, startLocalSqs } from "../../../helpers/sqs-records.ts";
import { influxdForSuite } from "../../../helpers/suite-influxd.ts";

const DATABASE = "steward_cloud_functions";
const TABLE = "qlik-cloud";
const SCHEDULES = "schedules";
const RATE_LIMITS = "rate-limit";
const SLOT_MS = 5 * 60_000;
const { skip, influxd } = influxdForSuite();

let cloud: SimulatedCloud;
let tenants: readonly SimulatedTenant[];
let capture: CaptureServer;
let dynamo: DynaliteServer;
let sqs: LocalSqs;
let config: string;
/** Embedded-metrics lines written by every function instance. */
const metricLines: string[] = [];

beforeAll(async () => {
  cloud = await startSimulatedCloud({ tenants: 2 });
  tenants = cloud.tenants;
  capture = await startCaptureServer();
  dynamo = await startDynalite();
  await dynamo.createTable(TABLE, "pk", "sk");
  await dynamo.createTable(SCHEDULES, "id");
  await dynamo.createTable(RATE_LIMITS, "pk");
  sqs = await startLocalSqs("qlik-cloud-runs");
});
afterAll(async () => {
  await cloud?.stop();
  await capture?.stop();
  await dynamo?.close();
  await sqs?.close();
});

/** One instance of a function: its parts built as at a cold start. */
async function instance() {
  return cloudFunctionParts({
    configText: config,
    dynamo: dynamo.client,
    qlikCloudTable: TABLE,
    rateLimitTable: RATE_LIMITS,
    clock: systemClock,
    writeMetrics: (line) => void metricLines.push(line.trim()),
  });
}

async function webhookInstance(table = TABLE): Promise<WebhookLambda> {
  const parts = webhookFunctionParts({
    configText: config,
    dynamo: dynamo.client,
    qlikCloudTable: table,
    queue: createSqsCloudRunQueue({ client: sqs.client, queueUrl: sqs.queueUrl }),
    clock: systemClock,
    writeMetrics: (line) => void metricLines.push(line.trim()),
  });
  return createWebhookLambda(parts.input, systemClock);
}

async function handOnInstance(configText = config): Promise<HandOnLambda> {
  const parts = await cloudFunctionParts({
    configText,
    dynamo: dynamo.client,
    qlikCloudTable: TABLE,
    rateLimitTable: RATE_LIMITS,
    clock: systemClock,
    writeMetrics: (line) => void metricLines.push(line.trim()),
  });
  return createHandOnLambda(parts.input);
}

async function pollInstance(owner: string): Promise<PollLambda> {
  return createPollLambda({
    input: (await instance()).input,
    cursors: createDynamoCloudCursorStore({ client: dynamo.client, tableName: TABLE }),
    lease: createDynamoScheduleLease({ client: dynamo.client, tableName: SCHEDULES, owner }),
    clock: systemClock,
    slotMs: SLOT_MS,
  });
}

const hooksOf = (reload: SimulatedReload) =>
  capture.requests.filter((request) => request.path === "/hook" && request.body.includes(reload.id));

/** The observability platform's event and log posts of `reload`. */
const obsPostsOf = (reload: SimulatedReload) =>
  capture.requests.filter((request) => request.path.startsWith("/obs") && request.body.includes(reload.id));

async function pointTenants(reload: SimulatedReload): Promise<unknown[]> {
  const answer = await influxd.query(
    `SELECT execution_id, tenant FROM reload_task_failed WHERE execution_id = '${reload.id}'`,
    DATABASE,
  );
  return (answer.results[0]?.series?.[0]?.values ?? []).map((row) => row[2]);
}

/** Waits for one point of `reload`, then checks it and the one webhook call are all there is. */
async function expectOutputsOnce(tenant: SimulatedTenant, reload: SimulatedReload): Promise<void> {
  await until(async () => (await pointTenants(reload)).length > 0, 5000, 50);
  expect(await pointTenants(reload)).toEqual([tenant.fixture.name]);
  const hooks = hooksOf(reload);
  expect(hooks).toHaveLength(1);
  await until(() => obsPostsOf(reload).length >= 2, 5000, 50);
  expect(obsPostsOf(reload).map((request) => request.path)).toEqual(
    expect.arrayContaining(["/obs/v1/accounts/1111/events", "/obs-log/v1"]),
  );
  expect(obsPostsOf(reload)).toHaveLength(2);
  expect(
    obsPostsOf(reload).every((request) => request.body.includes(`"qs_tenant":"${tenant.fixture.name}"`)),
  ).toBe(true);
  expect(JSON.parse(hooks[0]?.body ?? "{}")).toMatchObject({
    event: "Qlik Cloud reload failed",
    tenantName: tenant.fixture.name,
    reloadId: reload.id,
  });
}

const eventCount = (tenant: string, source: string, outcome: string) =>
  emfCount(metricLines, "steward_cloud_events_total", { tenant, source, outcome });

let webhook: WebhookLambda;
let handOn: HandOnLambda;
let poll: PollLambda;

/** The configuration and the first instance of each function, once for the file's suites. */
async function firstInstances(): Promise<void> {
  if (webhook !== undefined) return;
  config = cloudFunctionConfig(tenants, {
    captureUrl: capture.url,
    influxPort: influxd.port,
    database: DATABASE,
    obsPlatform: true,
  });
  webhook = await webhookInstance();
  handOn = await handOnInstance();
  poll = await pollInstance("poll instance 1");
  // Each tenant is polled once before the tests' runs finish, in a slot of its own: a tenant's
  // first poll records what it reads back without alerting it (its first look-back), and these
  // tests are about the polls of a tenant polled before.
  await poll({ time: new Date(Date.now() - 20 * SLOT_MS).toISOString() });
}

describe.skipIf(skip)("Qlik Cloud functions through their Lambda handlers", () => {
  const missed = new Map<string, SimulatedReload>();
  const delivered = new Map<string, SimulatedReload>();

  beforeAll(firstInstances);

  it("answers a signed failed-reload event of each tenant 202 before any alert, hands it on from the queue with one webhook call and one point, and the same event again from another instance, or the message again, with nothing more", async () => {
    const other = await webhookInstance();
    const otherHandOn = await handOnInstance();
    for (const tenant of tenants) {
      const name = tenant.fixture.name;
      const reload = tenant.finishReload({ status: "FAILED" });
      delivered.set(name, reload);
      const body = JSON.stringify(reloadEventBody(tenant.fixture, reload, "cloudevents"));

      const first = await webhook(signedDelivery(name, body, tenant.fixture.webhookSecret));
      expect(first.statusCode).toBe(202);
      expect(JSON.parse(first.body)).toEqual({ status: "accepted", outcome: "stored" });
      expect(hooksOf(reload)).toEqual([]);
      const { records, failed } = await consumeQueued(sqs, handOn);
      expect(records.map((record) => JSON.parse(record.body))).toEqual([
        { tenant: name, reloadId: reload.id },
      ]);
      expect(failed).toEqual([]);
      await expectOutputsOnce(tenant, reload);

      const legacy = JSON.stringify(reloadEventBody(tenant.fixture, reload, "legacy"));
      const again = await other(signedDelivery(name, legacy, tenant.fixture.webhookSecret, { base64: true }));
      expect(again.statusCode).toBe(200);
      expect(JSON.parse(again.body)).toEqual({ status: "accepted", outcome: "duplicate" });
      expect(await sqs.receive(1)).toEqual([]);
      expect(await otherHandOn({ Records: records })).toEqual({ batchItemFailures: [] });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expectOutputsOnce(tenant, reload);
      expect(eventCount(name, "webhook", "processed")).toBe(1);
      expect(eventCount(name, "webhook", "duplicate")).toBe(1);
    }
  });

  it("answers a missing or wrong signature 401, sends nothing and counts it", async () => {
    for (const tenant of tenants) {
      const name = tenant.fixture.name;
      const reload = tenant.finishReload({ status: "FAILED" });
      missed.set(name, reload);
      const body = JSON.stringify(reloadEventBody(tenant.fixture, reload, "cloudevents"));

      const wrong = await webhook(signedDelivery(name, body, "not-the-secret-0123456789abcdef-xyz"));
      const unsigned = signedDelivery(name, body, tenant.fixture.webhookSecret);
      delete (unsigned.headers as Record<string, string | undefined>)["qlik-signature"];
      const missing = await webhook(unsigned);

      expect([wrong.statusCode, missing.statusCode]).toEqual([401, 401]);
      expect(JSON.parse(wrong.body)).toEqual({ status: "error", reason: "Missing or wrong Qlik-Signature" });
      expect(eventCount(name, "webhook", "bad_signature")).toBe(2);
      expect(hooksOf(reload)).toEqual([]);
      expect(await pointTenants(reload)).toEqual([]);
    }
  });

  it("hands on once by polling each run whose delivery was missed, and nothing more for a run the webhook took", async () => {
    const result = await poll({ time: new Date(Date.now()).toISOString() });

    expect(result).toEqual({ "sim-a": "polled", "sim-b": "polled" });
    for (const tenant of tenants) {
      const name = tenant.fixture.name;
      await expectOutputsOnce(tenant, missed.get(name) as SimulatedReload);
      await expectOutputsOnce(tenant, delivered.get(name) as SimulatedReload);
      expect(eventCount(name, "poll", "processed")).toBe(1);
      expect(eventCount(name, "poll", "duplicate")).toBeGreaterThanOrEqual(1);
      expect(eventCount(name, "webhook", "processed")).toBe(1);
    }
    const lag = metricLines.filter((line) => line.includes('"steward_cloud_cursor_lag_seconds"'));
    expect(lag.length).toBeGreaterThanOrEqual(4);
  });

  it("polls a tenant once per schedule slot, whichever instances the slot's events reach", async () => {
    const second = await pollInstance("poll instance 2");
    const slot = Math.ceil(Date.now() / SLOT_MS) * SLOT_MS + 3 * SLOT_MS;
    const calls = () => tenants.map((tenant) => tenant.state.calls.length);

    const claimed = await second({ time: new Date(slot).toISOString() });
    const before = calls();
    const duplicate = await poll({ time: new Date(slot + 2000).toISOString() });
    const after = calls();
    const next = await poll({ time: new Date(slot + SLOT_MS).toISOString() });

    expect(claimed).toEqual({ "sim-a": "polled", "sim-b": "polled" });
    expect(duplicate).toEqual({ "sim-a": "passed", "sim-b": "passed" });
    expect(after).toEqual(before);
    expect(next).toEqual({ "sim-a": "polled", "sim-b": "polled" });
    for (const tenant of tenants) {
      expect(hooksOf(missed.get(tenant.fixture.name) as SimulatedReload)).toHaveLength(1);
      expect(hooksOf(delivered.get(tenant.fixture.name) as SimulatedReload)).toHaveLength(1);
    }
  });
});

describe.skipIf(skip)("Qlik Cloud functions when an instance stops short, and against bad deliveries", () => {
  beforeAll(firstInstances);

  it("hands on once, at the next poll, a run that an instance stored and did not hand on", async () => {
    const [tenant] = tenants as [SimulatedTenant];
    const reload = tenant.finishReload({ status: "FAILED" });
    const earlier = { ...systemClock, now: () => Date.now() - PENDING_AFTER_MS - 1000 };
    const inbox = createDynamoCloudRunInbox({
      client: dynamo.client,
      tableName: TABLE,
      clock: earlier,
      pendingAfterMs: PENDING_AFTER_MS,
    });
    const taken = await inbox.take({
      tenant: tenant.fixture.name,
      reloadId: reload.id,
      appId: reload.appId,
      kind: "reloadTaskFailure",
      status: "FAILED",
      finishedAt: new Date().toISOString(),
      source: "webhook",
      input: "webhook",
      receivedAt: new Date(earlier.now()).toISOString(),
    });
    expect(taken).toBe("new");
    const slot = Math.ceil(Date.now() / SLOT_MS) * SLOT_MS + 10 * SLOT_MS;

    await poll({ time: new Date(slot).toISOString() });
    await expectOutputsOnce(tenant, reload);
    await poll({ time: new Date(slot + SLOT_MS).toISOString() });
    await new Promise((resolve) => setTimeout(resolve, 300));

    await expectOutputsOnce(tenant, reload);
  });

  it("answers an unknown tenant 404, another method 405, a body over 1 MiB 413 and a run DynamoDB did not store 503, sending nothing", async () => {
    const [tenant] = tenants as [SimulatedTenant];
    const secret = tenant.fixture.webhookSecret;
    const reload = tenant.finishReload({ status: "FAILED" });
    const body = JSON.stringify(reloadEventBody(tenant.fixture, reload, "cloudevents"));
    const huge = JSON.stringify({ padding: "x".repeat(1024 * 1024) });
    const unstored = await webhookInstance("no-such-table");

    const unknown = await webhook(signedDelivery("sim-z", body, secret));
    const get = await webhook({
      ...signedDelivery("sim-a", body, secret),
      requestContext: { http: { method: "GET" } },
    });
    const tooLarge = await webhook(signedDelivery("sim-a", huge, secret, { base64: true }));
    const notStored = await unstored(signedDelivery("sim-a", body, secret));

    expect([unknown.statusCode, get.statusCode, tooLarge.statusCode, notStored.statusCode]).toEqual([
      404, 405, 413, 503,
    ]);
    expect(get.headers.allow).toBe("POST");
    expect(notStored.headers["retry-after"]).toBe("30");
    expect(notStored.body).not.toContain("no-such-table");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await sqs.receive(1)).toEqual([]);
    expect(hooksOf(reload)).toEqual([]);
    expect(await pointTenants(reload)).toEqual([]);
  });

  it("alerts two failed runs of one app handed on by two instances within the rate limit's window once", async () => {
    const [, tenant] = tenants as [SimulatedTenant, SimulatedTenant];
    const limited = cloudFunctionConfig(tenants, {
      captureUrl: capture.url,
      influxPort: influxd.port,
      database: DATABASE,
      rateLimitSeconds: 3600,
    });
    const [one, two] = [await handOnInstance(limited), await handOnInstance(limited)];
    const reloads = [0, 1].map(() => tenant.finishReload({ status: "FAILED", appIndex: 2 }));
    const deliver = async (lambda: HandOnLambda, reload: SimulatedReload) => {
      const answer = await webhook(
        signedDelivery(
          tenant.fixture.name,
          JSON.stringify(reloadEventBody(tenant.fixture, reload, "cloudevents")),
          tenant.fixture.webhookSecret,
        ),
      );
      const { records, failed } = await consumeQueued(sqs, lambda);
      return [answer.statusCode, records.length, failed.length];
    };

    const answers = [
      await deliver(one, reloads[0] as SimulatedReload),
      await deliver(two, reloads[1] as SimulatedReload),
    ];

    expect(answers).toEqual([
      [202, 1, 0],
      [202, 1, 0],
    ]);
    expect(hooksOf(reloads[0] as SimulatedReload)).toHaveLength(1);
    expect(hooksOf(reloads[1] as SimulatedReload)).toEqual([]);
    expect(
      emfCount(metricLines, "steward_alerts_total", { destination: "webhook", outcome: "suppressed" }),
    ).toBeGreaterThanOrEqual(1);
  });
});
