/**
 * `POST /api/v1/qlik-cloud/webhooks/{tenantName}` on the ingest API's node:http listener, as Qlik
 * (the simulated tenant's sender) and as others call it: a signed reload event is stored and
 * answered 202, again 200 without a second run; a missing or wrong signature 401, counted; an
 * unknown tenant 404 without its body being read; another method 405; a body over 1 MiB 413,
 * declared or streamed; a signed body that is no event 400; an event type Steward does not handle
 * 200, counted; a run that cannot be stored 503 with Retry-After. The ingest API keeps its paths.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFileKeyValueStore } from "../../../../core/adapters/local/file-key-value-store.ts";
import type { KeyValueStore } from "../../../../core/ports.ts";
import {
  type CloudInputMonitor,
  createCloudInputMonitor,
} from "../../../../core/qlik-cloud/cloud-input-monitor.ts";
import type { CloudReloadRun } from "../../../../core/qlik-cloud/cloud-reload-run.ts";
import { createCloudRunInbox } from "../../../../core/qlik-cloud/cloud-run-inbox.ts";
import { createCloudRunIntake } from "../../../../core/qlik-cloud/cloud-run-intake.ts";
import { createWebhookReceiver } from "../../../../core/qlik-cloud/webhook-receiver.ts";
import { signWebhookBody } from "../../../../core/qlik-cloud/webhook-signature.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { errorAnswer } from "../../../../functions/audit-ingest/ingestion-response.ts";
import { createWebhookHandler } from "../../../../functions/qlik-cloud/webhook-handler.ts";
import type { HttpListener } from "../../../../local/http/http-listener.ts";
import { startIngestListener } from "../../../../local/http/ingest-listener.ts";
import { reloadEventBody } from "../../../../local/simulated-cloud/reload-event-bodies.ts";
import { sendSignedEvent } from "../../../../local/simulated-cloud/signed-event-sender.ts";
import { tenantFixtures } from "../../../../local/simulated-cloud/tenant-fixtures.ts";
import { createTenantState, finishReload } from "../../../../local/simulated-cloud/tenant-state.ts";
import { until } from "../../../helpers/eventually.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { suiteScratchDirectory } from "../../../helpers/suite-scratch-directory.ts";

const scratch = suiteScratchDirectory("steward-cloud-webhook-");
const [fixture] = tenantFixtures(1) as [ReturnType<typeof tenantFixtures>[number]];
const SECRET = fixture.webhookSecret;

let listener: HttpListener;
let store: KeyValueStore;
let monitor: CloudInputMonitor;
const handled: CloudReloadRun[] = [];
const logger = recordingLogger();

beforeAll(async () => {
  store = await openFileKeyValueStore({
    file: join(scratch.root, "runs.json"),
    clock: systemClock,
    maxKeysPerNamespace: 100,
  });
  monitor = createCloudInputMonitor({ counter: () => undefined, gauge: () => undefined }, systemClock);
  const intake = createCloudRunIntake({
    inbox: createCloudRunInbox(store),
    handler: async (run) => void handled.push(run),
    monitor,
    logger,
  });
  const receiver = createWebhookReceiver({
    tenants: [{ name: "sim-a", secret: SECRET }],
    intake,
    monitor,
    logger,
    clock: systemClock,
  });
  listener = await startIngestListener({
    name: "ingest",
    host: "127.0.0.1",
    port: 0,
    logger,
    handler: async () => errorAnswer({}, "now", { status: 418, reason: "the ingest API answered" }),
    qlikCloudWebhooks: createWebhookHandler(receiver, logger),
  });
});
afterAll(async () => {
  await listener?.stop();
  await store?.close();
});

const url = (tenant = "sim-a") => `${listener.url}/api/v1/qlik-cloud/webhooks/${tenant}`;
const events = () => monitor.status("sim-a").events;

function reloadBody(): string {
  const reload = finishReload(createTenantState(fixture), { status: "FAILED" });
  return JSON.stringify(reloadEventBody(fixture, reload, "cloudevents"));
}

async function post(body: string | Uint8Array, headers: Record<string, string>, target = url()) {
  const response = await fetch(target, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, string>,
    retryAfter: response.headers.get("retry-after"),
  };
}

describe("the Qlik Cloud webhook route", () => {
  it("stores a signed reload event (202), and answers the same event again 200 without a second run", async () => {
    const body = reloadBody();
    const first = await sendSignedEvent({ url: url(), body, secret: SECRET });
    const again = await sendSignedEvent({ url: url(), body, secret: SECRET });

    expect([first.status, again.status]).toEqual([202, 200]);
    await until(() => events()["webhook.processed"] === 1);
    expect(handled.filter((run) => body.includes(run.reloadId))).toHaveLength(1);
    expect(events()).toMatchObject({ "webhook.processed": 1, "webhook.duplicate": 1 });
  });

  it("refuses a missing or wrong signature with 401, counted, and takes nothing", async () => {
    const body = reloadBody();
    const before = handled.length;
    const missing = await post(body, {});
    const wrong = await post(body, {
      "qlik-signature": signWebhookBody(body, "another-secret-0123456789abcdef-xyz"),
    });

    expect([missing.status, wrong.status]).toEqual([401, 401]);
    expect(missing.body).toEqual({ status: "error", reason: "Missing or wrong Qlik-Signature" });
    expect(events()["webhook.bad_signature"]).toBe(2);
    expect(handled).toHaveLength(before);
  });

  it("answers 404 for a tenant whose webhook is not on, and 405 for another method", async () => {
    const unknown = await post("{}", { "qlik-signature": "00".repeat(32) }, url("nope"));
    const get = await fetch(url());

    expect(unknown.status).toBe(404);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });

  it("refuses a body over 1 MiB with 413, whether declared or streamed", async () => {
    const big = new Uint8Array(1024 * 1024 + 1).fill(0x20);
    const declared = await post(big, { "qlik-signature": signWebhookBody(big, SECRET) });
    const streamed = await fetch(url(), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 17; i += 1) controller.enqueue(new Uint8Array(64 * 1024));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);

    expect([declared.status, streamed.status]).toEqual([413, 413]);
  });

  it("refuses a signed body that is no event with 400, counted failed", async () => {
    const body = '{"hello":"world"}';
    const answer = await post(body, { "qlik-signature": signWebhookBody(body, SECRET) });

    expect(answer).toMatchObject({
      status: 400,
      body: { reason: "Not an event: the body names no event type (type or eventType)" },
    });
    expect(events()["webhook.failed"]).toBe(1);
  });

  it("acknowledges an event type it does not handle, counted unknown_type", async () => {
    const body = JSON.stringify({
      id: "e1",
      specversion: "1.0",
      type: "com.qlik.v1.app.reload.finished",
      data: {},
    });
    const answer = await post(body, { "qlik-signature": signWebhookBody(body, SECRET) });

    expect(answer).toMatchObject({ status: 200, body: { outcome: "ignored" } });
    expect(events()["webhook.unknown_type"]).toBe(1);
    expect(logger.at("warn").map((entry) => entry.message)).toContain(
      "A Qlik Cloud webhook delivered an event type Steward does not handle; acknowledged and left",
    );
  });

  it("leaves every other path to the ingest API", async () => {
    expect((await fetch(`${listener.url}/api/v1/audit-event`, { method: "POST" })).status).toBe(418);
    expect((await fetch(`${listener.url}/api/v1/qlik-cloud/webhooks`, { method: "POST" })).status).toBe(418);
  });

  it("answers 503 with Retry-After when the run cannot be stored, so that Qlik sends it again", async () => {
    await store.close();
    const body = reloadBody();
    const answer = await post(body, { "qlik-signature": signWebhookBody(body, SECRET) });

    expect(answer).toMatchObject({ status: 503, retryAfter: "30" });
    expect(events()["webhook.failed"]).toBe(2);
  });
});
