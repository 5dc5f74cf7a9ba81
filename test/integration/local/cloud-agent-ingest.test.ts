/**
 * The on-prem agent on cloud stores, end to end through `steward start`: two agents with
 * `cloud.enable`, the SQS queue (local-aws-sqs) and the rate-limit table (dynalite) on loopback.
 * An event posted to either agent is in the SQS queue once it got its 202, no local log or
 * destination file is written, the per-client limit is one count shared by both agents, and the
 * cloud's consumer function writes the queued events to S3 (s3rver).
 */
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ScanCommand } from "@aws-sdk/client-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createS3ObjectStore } from "../../../core/adapters/aws/s3-object-store.ts";
import { parseConfig } from "../../../core/config/index.ts";
import { selectDestinations } from "../../../core/destinations/select-destinations.ts";
import { systemClock } from "../../../core/system-clock.ts";
import { cloudDestinationAdapters } from "../../../functions/audit-consumer/cloud-destinations.ts";
import { createAuditConsumer } from "../../../functions/audit-consumer/consumer.ts";
import { envelopeOfType } from "../../helpers/audit-envelopes.ts";
import { type DynaliteServer, startDynalite } from "../../helpers/dynalite-server.ts";
import { freePort } from "../../helpers/free-port.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { recordingLogger } from "../../helpers/recording-logger.ts";
import { type LocalS3, startS3rver } from "../../helpers/s3rver.ts";
import { type LocalSqs, startLocalSqs } from "../../helpers/sqs-records.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import type { StewardProcess } from "../../helpers/steward-process.ts";

const RATE_LIMIT_TABLE = "steward-rate-limits";
let sqs: LocalSqs;
let dynamo: DynaliteServer;
let s3: LocalS3;

beforeAll(async () => {
  [sqs, dynamo, s3] = await Promise.all([startLocalSqs(), startDynalite(), startS3rver("audit-bucket")]);
  await dynamo.createTable(RATE_LIMIT_TABLE, "pk");
});
afterAll(async () => {
  await Promise.all([sqs?.close(), dynamo?.close(), s3?.close()]);
});

interface Agent {
  proc: StewardProcess;
  dir: string;
  ingestUrl: string;
}

async function startAgent(): Promise<Agent> {
  const dir = scratchDirectory("steward-cloud-agent-");
  const port = await freePort();
  writeFileSync(
    join(dir, "steward.yaml"),
    `Service:
  auditEvents:
    port: ${port}
    rateLimit:
      maxPerMinute: 3
  restServer:
    enable: false
  cloud:
    enable: true
    region: us-east-1
    eventQueueUrl: ${sqs.queueUrl}
    rateLimitTable: ${RATE_LIMIT_TABLE}
`,
  );
  const proc = await startStewardIn(dir, {
    env: { AWS_ENDPOINT_URL_SQS: sqs.endpoint, AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint },
  });
  return { proc, dir, ingestUrl: `http://127.0.0.1:${port}/api/v1/audit-event` };
}

function post(agent: Agent, eventId: string): Promise<Response> {
  return fetch(agent.ingestUrl, {
    method: "POST",
    headers: { "content-type": "application/json", "x-audit-client-version": "0.3.0" },
    body: JSON.stringify({ ...envelopeOfType("navigation.sheet.loaded"), eventId }),
  });
}

/** Waits for a fresh rate-limit minute when the current one ends within 10 s. */
async function awayFromWindowEnd(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

describe("agent on cloud stores: audit ingest", () => {
  it("enqueues to SQS, writes nothing locally and shares one rate limit in DynamoDB", async () => {
    const [a, b] = await Promise.all([startAgent(), startAgent()]);
    expect(a.proc.output()).toMatch(/Audit events go to the cloud queue/);
    const ids = [
      "1b4e28ba-2fa1-4d2e-883f-0016d3cca427",
      "2b4e28ba-2fa1-4d2e-883f-0016d3cca427",
      "3b4e28ba-2fa1-4d2e-883f-0016d3cca427",
      "4b4e28ba-2fa1-4d2e-883f-0016d3cca427",
    ] as const;
    await awayFromWindowEnd();

    const answers = [];
    for (const [agent, id] of [
      [a, ids[0]],
      [b, ids[1]],
      [a, ids[2]],
      [b, ids[3]],
    ] as const) {
      const response = await post(agent, id);
      answers.push([response.status, response.headers.get("x-ratelimit-remaining")]);
    }

    expect(answers).toEqual([
      [202, "2"],
      [202, "1"],
      [202, "0"],
      [429, "0"],
    ]);
    const records = await sqs.receive(4);
    expect(records.map((record) => JSON.parse(record.body).eventId).sort()).toEqual(ids.slice(0, 3));
    expect(records[0]?.messageAttributes.clientIp?.stringValue).toBe("127.0.0.1");
    const counters = await dynamo.client.send(new ScanCommand({ TableName: RATE_LIMIT_TABLE }));
    expect(counters.Items?.map((item) => item.hits?.N)).toEqual(["4"]);

    for (const agent of [a, b]) {
      agent.proc.child.kill("SIGTERM");
      expect((await agent.proc.exited()).code).toBe(0);
      expect(existsSync(join(agent.dir, "data", "audit-queue"))).toBe(false);
      expect(
        filesUnder(agent.dir).filter((file) => file !== "steward.yaml" && file !== "data/instance-id"),
      ).toEqual([]);
    }

    // The cloud side: the consumer function writes what the agents queued to the bucket.
    const parsed = parseConfig({ Service: { cloud: { enable: true, region: "us-east-1" } } });
    if (!parsed.ok) throw new Error("test config invalid");
    const logger = recordingLogger();
    const consume = createAuditConsumer({
      destinations: selectDestinations(
        parsed.config.auditEvents.destination,
        parsed.config.timeseriesdbConfig,
        cloudDestinationAdapters({ s3: s3.client, bucket: s3.bucket, bucketPrefix: "", logger }),
      ).map(({ destination }) => destination),
      logger,
      clock: systemClock,
    });
    expect(await consume({ Records: records })).toEqual({ batchItemFailures: [] });
    const store = createS3ObjectStore({ client: s3.client, bucket: s3.bucket, prefix: "" });
    expect(await store.list("audit-events/parquet/date=2026-01-01/")).toHaveLength(1);
  }, 60_000);
});
