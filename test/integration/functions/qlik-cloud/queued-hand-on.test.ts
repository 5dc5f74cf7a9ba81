/**
 * The Qlik Cloud webhook function answering once a run is stored and queued, and the hand-on
 * function handing it on from the runs' queue, through their Lambda handlers as their entry
 * points build them, against two simulated tenants, dynalite for the Qlik Cloud, schedule and
 * rate-limit tables, local-aws-sqs for the runs' queue, an SMTP server for email, a capture server
 * for Teams and the outgoing webhook, and InfluxDB 1.x for the points. A delivery is answered 202
 * at once while the tenant's API hangs, before any call to it or any alert; the queue's message
 * then hands the run on with one email, one Teams card, one webhook call and one point per
 * tenant, and the message delivered again, or the poll after, adds nothing. A run the poll's sweep
 * handed on before its message came is not handed on again; a run whose key could not be queued
 * is still answered 202 and handed on by the poll; a message that names no run is reported failed,
 * to be received again and reach the dead-letter queue.
 */
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDynamoCloudCursorStore } from "../../../../core/adapters/aws/dynamo-cloud-cursor-store.ts";
import { createDynamoScheduleLease } from "../../../../core/adapters/aws/dynamo-schedule-lease.ts";
import { createSqsCloudRunQueue } from "../../../../core/adapters/aws/sqs-cloud-run-queue.ts";
import type { Clock } from "../../../../core/ports.ts";
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
import { cloudFunctionConfig, consumeQueued, signedDelivery } from "../../../helpers/qlik-cloud-functions.ts";
import { type SmtpCapture, startSmtpCapture } from "../../../helpers/smtp-capture.ts";
import { type LocalSqs, startLocalSqs } from "../../../helpers/sqs-records.ts";
import { influxdForSuite } from "../../../helpers/suite-influxd.ts";

const DATABASE = "steward_cloud_queued";
const TABLE = "qlik-cloud";
const SCHEDULES = "schedules";
const RATE_LIMITS = "rate-limit";
const SLOT_MS = 5 * 60_000;
/** How long a webhook answer may take here: it waits for DynamoDB and SQS on loopback only. */
const ANSWER_WITHIN_MS = 2000;
const { skip, influxd } = influxdForSuite();

let cloud: SimulatedCloud;
let tenants: readonly SimulatedTenant[];
let smtp: SmtpCapture;
let capture: CaptureServer;
let dynamo: DynaliteServer;
let sqs: LocalSqs;
let config: string;

beforeAll(async () => {
  cloud = await startSimulatedCloud({ tenants: 2 });
  tenants = cloud.tenants;
  smtp = await startSmtpCapture();
  capture = await startCaptureServer();
  dynamo = await startDynalite();
  await dynamo.createTable(TABLE, "pk", "sk");
  await dynamo.createTable(SCHEDULES, "id");
  await dynamo.createTable(RATE_LIMITS, "pk");
  sqs = await startLocalSqs("qlik-cloud-runs");
});
afterAll(async () => {
  await cloud?.stop();
  await smtp?.stop();
  await capture?.stop();
  await dynamo?.close();
  await sqs?.close();
});

/** A webhook function instance whose clock reads `clock`, sending to `queueUrl`. */
function webhookInstance(clock: Clock = systemClock, queueUrl = sqs.queueUrl): WebhookLambda {
  const parts = webhookFunctionParts({
    configText: config,
    dynamo: dynamo.client,
    qlikCloudTable: TABLE,
    queue: createSqsCloudRunQueue({ client: sqs.client, queueUrl }),
    clock,
  });
  return createWebhookLambda(parts.input, clock);
}

const handingParts = () =>
  cloudFunctionParts({
    configText: config,
    dynamo: dynamo.client,
    qlikCloudTable: TABLE,
    rateLimitTable: RATE_LIMITS,
    clock: systemClock,
  });

const handOnInstance = async (): Promise<HandOnLambda> => createHandOnLambda((await handingParts()).input);

async function pollInstance(owner: string): Promise<PollLambda> {
  return createPollLambda({
    input: (await handingParts()).input,
    cursors: createDynamoCloudCursorStore({ client: dynamo.client, tableName: TABLE }),
    lease: createDynamoScheduleLease({ client: dynamo.client, tableName: SCHEDULES, owner }),
    clock: systemClock,
    slotMs: SLOT_MS,
  });
}

/** The scheduled event of the slot `slots` after now's. */
const scheduled = (slots: number) => ({
  time: new Date(Math.round(Date.now() / SLOT_MS) * SLOT_MS + slots * SLOT_MS).toISOString(),
});

const deliveryOf = (tenant: SimulatedTenant, reload: SimulatedReload) =>
  signedDelivery(
    tenant.fixture.name,
    JSON.stringify(reloadEventBody(tenant.fixture, reload, "cloudevents")),
    tenant.fixture.webhookSecret,
  );

/** How many emails, Teams posts, webhook calls and points `reload` has. */
async function outputCounts(reload: SimulatedReload): Promise<number[]> {
  const mentioning = (path: string) =>
    capture.requests.filter((request) => request.path === path && request.body.includes(reload.id));
  const points = await influxd.query(
    `SELECT execution_id, tenant FROM reload_task_failed WHERE execution_id = '${reload.id}'`,
    DATABASE,
  );
  return [
    smtp.received.filter((email) => (email.mail.text ?? "").includes(reload.id)).length,
    mentioning("/teams").length,
    mentioning("/hook").length,
    points.results[0]?.series?.[0]?.values?.length ?? 0,
  ];
}

/** Waits for one alert per channel and one point of a failed `reload`, then checks they are all there is. */
async function expectAlertedOnce(reload: SimulatedReload): Promise<void> {
  await until(async () => (await outputCounts(reload)).every((count) => count > 0), 5000, 50);
  expect(await outputCounts(reload)).toEqual([1, 1, 1, 1]);
}

/** Lets anything still under way arrive, then checks `reload` was alerted once on each channel. */
async function expectNothingMore(reload: SimulatedReload): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(await outputCounts(reload)).toEqual([1, 1, 1, 1]);
}

/** The configuration, and each tenant polled once: a tenant's first poll alerts nothing it reads. */
async function firstPoll(): Promise<void> {
  if (config !== undefined) return;
  config = cloudFunctionConfig(tenants, {
    smtpPort: smtp.port,
    captureUrl: capture.url,
    influxPort: influxd.port,
    database: DATABASE,
  });
  expect(await (await pollInstance("first poll"))(scheduled(-20))).toEqual({
    "sim-a": "polled",
    "sim-b": "polled",
  });
}

describe.skipIf(skip)("Qlik Cloud webhook answering before the run is handed on from the queue", () => {
  beforeAll(firstPoll);

  it("answers a signed failed-reload delivery 202 at once while the tenant's API hangs, before any call to it or any alert, and hands it on from the queue's message", async () => {
    const [tenant] = tenants as [SimulatedTenant];
    const webhook = webhookInstance();
    const reload = tenant.finishReload({ status: "FAILED" });
    const callsBefore = tenant.state.calls.length;
    tenant.stall(true);
    const started = performance.now();
    let answer: Awaited<ReturnType<WebhookLambda>>;
    try {
      answer = await webhook(deliveryOf(tenant, reload));
    } finally {
      tenant.stall(false);
    }
    const elapsed = performance.now() - started;

    expect(answer.statusCode).toBe(202);
    expect(elapsed).toBeLessThan(ANSWER_WITHIN_MS);
    expect(tenant.state.calls.length).toBe(callsBefore);
    expect(await outputCounts(reload)).toEqual([0, 0, 0, 0]);
    const { records, failed } = await consumeQueued(sqs, await handOnInstance());
    expect(records).toHaveLength(1);
    expect(failed).toEqual([]);
    await expectAlertedOnce(reload);
  });

  it("hands each tenant's run on once from its message, one email, Teams card, webhook call and point each; the message again and the poll after add nothing", async () => {
    const webhook = webhookInstance();
    const reloads = tenants.map((tenant) => tenant.finishReload({ status: "FAILED" }));
    const answers = await Promise.all(tenants.map((tenant, i) => webhook(deliveryOf(tenant, reloads[i]!))));
    expect(answers.map((answer) => answer.statusCode)).toEqual([202, 202]);

    const { records, failed } = await consumeQueued(sqs, await handOnInstance());
    expect(records.map((record) => JSON.parse(record.body).reloadId).sort()).toEqual(
      reloads.map((reload) => reload.id).sort(),
    );
    expect(failed).toEqual([]);
    for (const reload of reloads) await expectAlertedOnce(reload);

    expect(await (await handOnInstance())({ Records: records })).toEqual({ batchItemFailures: [] });
    expect(await (await pollInstance("poll after"))(scheduled(0))).toEqual({
      "sim-a": "polled",
      "sim-b": "polled",
    });
    for (const reload of reloads) await expectNothingMore(reload);
  });
});

describe.skipIf(skip)("Qlik Cloud runs handed on by the poll instead of the queue", () => {
  beforeAll(firstPoll);

  /** A webhook instance whose runs are written as long ago as the poll's sweep takes them. */
  const earlier = { ...systemClock, now: () => Date.now() - PENDING_AFTER_MS - 1000 };

  it("does not hand on again a run the poll's sweep handed on before its message was consumed", async () => {
    const [, tenant] = tenants as [SimulatedTenant, SimulatedTenant];
    const reload = tenant.finishReload({ status: "FAILED" });

    expect((await webhookInstance(earlier)(deliveryOf(tenant, reload))).statusCode).toBe(202);
    await (await pollInstance("sweeping poll"))(scheduled(5));
    await expectAlertedOnce(reload);
    const { records, failed } = await consumeQueued(sqs, await handOnInstance());

    expect(records).toHaveLength(1);
    expect(failed).toEqual([]);
    await expectNothingMore(reload);
  });

  it("answers 202 for a run stored whose key could not be queued, and the poll hands it on", async () => {
    const [tenant] = tenants as [SimulatedTenant];
    const reload = tenant.finishReload({ status: "FAILED" });
    const unqueued = webhookInstance(earlier, `${sqs.endpoint}/000000000000/no-such-queue`);

    const answer = await unqueued(deliveryOf(tenant, reload));

    expect(answer.statusCode).toBe(202);
    expect(JSON.parse(answer.body)).toEqual({ status: "accepted", outcome: "stored" });
    expect(await sqs.receive(1)).toEqual([]);
    await (await pollInstance("catching poll"))(scheduled(10));
    await expectAlertedOnce(reload);
  });

  it("reports a message that names no run failed, so that it is received again and reaches the dead-letter queue", async () => {
    await sqs.client.send(
      new SendMessageCommand({ QueueUrl: sqs.queueUrl, MessageBody: '{"tenant":"sim-a"}' }),
    );

    const { records, failed } = await consumeQueued(sqs, await handOnInstance());

    expect(failed).toEqual(records.map((record) => record.messageId));
    expect(failed).toHaveLength(1);
  });
});
