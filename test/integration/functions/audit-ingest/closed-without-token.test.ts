/**
 * The ingest app as the Lambda builds it (functions/audit-ingest/lambda-app.ts) from the
 * StewardConfig secret's default, `Service: {}`: the API is on but has no `auditEvents.apiToken`,
 * so every request is answered 503 in the ingestion shape, nothing reaches SQS, and one ERROR at
 * build (the cold start) says what to set. API Gateway v2 events go through hono/aws-lambda.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { handle } from "hono/aws-lambda";
import { createSqsServer } from "local-aws-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMIT_TABLE_KEY } from "../../../../core/adapters/aws/dynamo-rate-limit-store.ts";
import { createLambdaIngestApp } from "../../../../functions/audit-ingest/lambda-app.ts";
import { lambdaRuntime } from "../../../../functions/lambda-runtime.ts";
import { apiGatewayEvent, type LambdaResult, lambdaContext } from "../../../helpers/api-gateway-event.ts";
import { validEnvelope } from "../../../helpers/audit-envelopes.ts";
import { type DynaliteServer, startDynalite } from "../../../helpers/dynalite-server.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

type Handler = (event: unknown, context: unknown) => Promise<LambdaResult>;

let sqsServer: Server;
let sqs: SQSClient;
let queueUrl: string;
let dynamo: DynaliteServer;

beforeAll(async () => {
  sqsServer = await createSqsServer({ port: 0, hostname: "127.0.0.1" });
  sqs = new SQSClient({
    endpoint: `http://127.0.0.1:${(sqsServer.address() as AddressInfo).port}`,
    region: "us-east-1",
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
  queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: "closed-audit-events" })))
    .QueueUrl as string;
  dynamo = await startDynalite();
  await dynamo.createTable("rate", RATE_LIMIT_TABLE_KEY);
});
afterAll(async () => {
  sqs.destroy();
  await dynamo.close();
  await new Promise<void>((resolve) => sqsServer.close(() => resolve()));
});

describe("ingest Lambda app with the secret's default (Service: {})", () => {
  it("answers every request 503 in the ingestion shape, queues nothing, and logs one ERROR naming auditEvents.apiToken", async () => {
    // Prepare
    const logger = recordingLogger();
    const { config } = lambdaRuntime("Service: {}");
    const handler = handle(
      createLambdaIngestApp({
        settings: config.auditEvents,
        sqs,
        queueUrl,
        dynamo: dynamo.client,
        rateLimitTable: "rate",
        logger,
        clock: createManualClock(),
      }),
    ) as unknown as Handler;
    const events = [
      apiGatewayEvent({
        method: "POST",
        path: "/api/v1/audit-event",
        headers: { "content-type": "application/json", "x-audit-client-version": "0.3.0" },
        body: JSON.stringify(validEnvelope()),
      }),
      apiGatewayEvent({ method: "GET", path: "/api/v1/test-connection" }),
      apiGatewayEvent({ method: "GET", path: "/documentation/json" }),
      apiGatewayEvent({
        method: "OPTIONS",
        path: "/api/v1/audit-event",
        headers: { origin: "https://qlik.example.com", "access-control-request-method": "POST" },
      }),
    ];

    // Act
    const results: LambdaResult[] = [];
    for (const event of events) results.push(await handler(event, lambdaContext));
    const received = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
    );

    // Assess
    for (const result of results) {
      expect(result.statusCode).toBe(503);
      expect(result.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(result.body)).toEqual({
        status: "error",
        receivedAt: expect.any(String),
        outcome: "dropped",
        reason: "Audit event API not configured: auditEvents.apiToken is not set",
      });
    }
    expect(received.Messages ?? []).toEqual([]);
    const errors = logger.at("error");
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain("every request is answered 503 until auditEvents.apiToken is set");
    expect(errors[0]?.fields).toEqual({ setting: "auditEvents.apiToken" });
  });
});
