/**
 * The Qlik Cloud webhook, hand-on and polling functions as `sst deploy` bundles them (code
 * splitting on, infra/functions.ts), run the way Lambda runs them: a fresh `node` process imports
 * `handler.mjs` from the bundle's directory and calls the handler, with the linked tables in
 * dynalite, the runs' queue in local-aws-sqs and a simulated tenant on loopback. The SMTP library
 * stays out of what a cold start loads. A signed delivery is stored (202), its key queued, and
 * counted as an embedded metric on standard output, the same delivery again is a duplicate and a
 * wrong signature 401; the hand-on function, given the queued message, hands the run on (its log
 * line); the polling function polls the tenant and hands on the run it finds once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { reloadEventBody } from "../../../../local/simulated-cloud/reload-event-bodies.ts";
import {
  type SimulatedCloud,
  startSimulatedCloud,
} from "../../../../local/simulated-cloud/start-simulated-cloud.ts";
import { type DynaliteServer, startDynalite } from "../../../helpers/dynalite-server.ts";
import { bundleLambda, type LambdaBundle } from "../../../helpers/lambda-bundle.ts";
import { coldStartRun } from "../../../helpers/lambda-cold-start.ts";
import { emfCount, signedDelivery } from "../../../helpers/qlik-cloud-functions.ts";
import { type LocalSqs, startLocalSqs } from "../../../helpers/sqs-records.ts";

const root = path.resolve(import.meta.dirname, "../../../..");

let outDir: string;
let webhook: LambdaBundle;
let handOn: LambdaBundle;
let poll: LambdaBundle;
let dynamo: DynaliteServer;
let sqs: LocalSqs;
let cloud: SimulatedCloud;

beforeAll(async () => {
  outDir = mkdtempSync(path.join(tmpdir(), "steward-qlik-cloud-bundle-"));
  const options = { sdk: "bundled", splitting: true } as const;
  webhook = await bundleLambda(
    path.join(root, "functions/qlik-cloud/webhook-function.ts"),
    path.join(outDir, "webhook"),
    options,
  );
  handOn = await bundleLambda(
    path.join(root, "functions/qlik-cloud/hand-on-function.ts"),
    path.join(outDir, "hand-on"),
    options,
  );
  poll = await bundleLambda(
    path.join(root, "functions/qlik-cloud/poll-function.ts"),
    path.join(outDir, "poll"),
    options,
  );
  dynamo = await startDynalite();
  await dynamo.createTable("qlik-cloud", "pk", "sk");
  await dynamo.createTable("schedules", "id");
  await dynamo.createTable("rate-limit", "pk");
  sqs = await startLocalSqs("qlik-cloud-runs");
  cloud = await startSimulatedCloud({ tenants: 1 });
}, 60_000);
afterAll(async () => {
  await cloud?.stop();
  await dynamo?.close();
  await sqs?.close();
  rmSync(outDir, { recursive: true, force: true });
});

function config(): string {
  const [tenant] = cloud.tenants;
  return stringify({
    Service: {
      logLevel: "info",
      qlikCloud: {
        enable: true,
        tenants: [
          {
            name: tenant?.fixture.name,
            url: tenant?.url,
            auth: {
              oauth: { clientId: tenant?.fixture.clientId, clientSecret: tenant?.fixture.clientSecret },
            },
            webhook: { enable: true, secret: tenant?.fixture.webhookSecret },
            poll: { enable: true, initialHours: 1 },
          },
        ],
      },
    },
  });
}

function coldStart(bundle: LambdaBundle, events: unknown[]) {
  return coldStartRun(bundle.file, events, {
    resources: {
      StewardConfig: { value: config() },
      QlikCloudTable: { name: "qlik-cloud" },
      ScheduleTable: { name: "schedules" },
      RateLimitTable: { name: "rate-limit" },
      QlikCloudRunQueue: { url: sqs.queueUrl },
    },
    env: { AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint, AWS_ENDPOINT_URL_SQS: sqs.endpoint },
  });
}

describe("Qlik Cloud functions bundled as deployed", () => {
  it("keeps the SMTP library out of a cold start's files: it is loaded when an email client is made", () => {
    for (const bundle of [webhook, handOn, poll]) {
      expect(bundle.files).toBeGreaterThan(1);
      expect(bundle.startInputs.some((input) => input.includes("functions/qlik-cloud/"))).toBe(true);
      expect(bundle.startInputs.filter((input) => input.includes("node_modules/nodemailer/"))).toEqual([]);
    }
  });

  it("stores a signed delivery (202) and queues it, takes it again as a duplicate (200), refuses a wrong signature (401), counts each, and the hand-on function hands the queued run on", async () => {
    const [tenant] = cloud.tenants;
    if (tenant === undefined) throw new Error("no simulated tenant");
    const reload = tenant.finishReload({ status: "FAILED" });
    const body = JSON.stringify(reloadEventBody(tenant.fixture, reload, "cloudevents"));
    const secret = tenant.fixture.webhookSecret;

    const { results, stderrLines, stdoutLines } = await coldStart(webhook, [
      signedDelivery("sim-a", body, secret),
      signedDelivery("sim-a", body, secret, { base64: true }),
      signedDelivery("sim-a", body, "not-the-secret-0123456789abcdef-xyz"),
    ]);

    expect(results.map((result) => result.statusCode)).toEqual([202, 200, 401]);
    const records = await sqs.receive(10);
    expect(records.map((record) => JSON.parse(record.body))).toEqual([
      { tenant: "sim-a", reloadId: reload.id },
    ]);
    const handed = await coldStart(handOn, [{ Records: records }]);
    expect(handed.results).toEqual([{ batchItemFailures: [] }]);
    expect(handed.stdoutLines.filter((line) => line.includes(`reloadId=${reload.id}`))).toHaveLength(1);
    const output = [...stdoutLines, ...stderrLines, ...handed.stdoutLines, ...handed.stderrLines].join("\n");
    expect(output).toContain(
      `Qlik Cloud reload failed: app ${reload.appId} tenant=sim-a reloadId=${reload.id}`,
    );
    expect(output).toContain("missing or wrong Qlik-Signature; refused 401 tenant=sim-a");
    expect(output).not.toContain(secret);
    const metrics = [...stdoutLines, ...handed.stdoutLines].filter((line) => line.startsWith('{"_aws"'));
    for (const outcome of ["processed", "duplicate", "bad_signature"])
      expect(emfCount(metrics, "steward_cloud_events_total", { tenant: "sim-a", outcome }), outcome).toBe(1);
  });

  it("polls the tenant in a fresh process and hands on once the run whose delivery was missed", async () => {
    const [tenant] = cloud.tenants;
    if (tenant === undefined) throw new Error("no simulated tenant");
    const reload = tenant.finishReload({ status: "FAILED" });

    const { results, stdoutLines } = await coldStart(poll, [{ time: new Date().toISOString() }]);

    expect(results).toEqual([{ "sim-a": "polled" }]);
    const handed = stdoutLines.filter((line) => line.includes(`reloadId=${reload.id}`));
    expect(handed).toHaveLength(1);
    expect(handed[0]).toContain("source=poll");
  });
});
