import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { handle } from "hono/aws-lambda";
import { createSqsServer } from "local-aws-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMIT_TABLE_KEY } from "../../../../core/adapters/aws/dynamo-rate-limit-store.ts";
import { decodeSqsEventMessage } from "../../../../core/adapters/aws/sqs-event-queue.ts";
import { createLambdaIngestApp } from "../../../../functions/audit-ingest/lambda-app.ts";
import { apiGatewayEvent, type LambdaResult, lambdaContext } from "../../../helpers/api-gateway-event.ts";
import { UUID_A, validEnvelope } from "../../../helpers/audit-envelopes.ts";
import { type DynaliteServer, startDynalite } from "../../../helpers/dynalite-server.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

type Handler = (event: unknown, context: unknown) => Promise<LambdaResult>;

let sqsServer: Server;
let sqs: SQSClient;
let dynamo: DynaliteServer;
let queueUrl: string;
const TABLE = "steward-rate-limit";

function post(handler: Handler, body: unknown, sourceIp?: string) {
  const event = apiGatewayEvent({
    method: "POST",
    path: "/api/v1/audit-event",
    headers: {
      "content-type": "application/json",
      "x-audit-client-version": "0.3.0",
      authorization: "Bearer tok",
    },
    body: JSON.stringify(body),
    ...(sourceIp === undefined ? {} : { sourceIp }),
  });
  return handler(event, lambdaContext);
}

beforeAll(async () => {
  sqsServer = await createSqsServer({ port: 0, hostname: "127.0.0.1" });
  const sqsEndpoint = `http://127.0.0.1:${(sqsServer.address() as AddressInfo).port}`;
  sqs = new SQSClient({ endpoint: sqsEndpoint, region: "us-east-1" });
  queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: "audit-events" }))).QueueUrl as string;
  dynamo = await startDynalite();
  await dynamo.createTable(TABLE, RATE_LIMIT_TABLE_KEY);

  // The real entry point reads its links and clients from the environment.
  process.env.SST_RESOURCE_App = JSON.stringify({ name: "steward", stage: "test" });
  process.env.SST_RESOURCE_StewardConfig = JSON.stringify({
    type: "sst.sst.Secret",
    value:
      "Service:\n  auditEvents:\n    enable: true\n    apiToken: tok\n    rateLimit:\n      maxPerMinute: 3\n",
  });
  process.env.SST_RESOURCE_AuditEventQueue = JSON.stringify({ type: "sst.aws.Queue", url: queueUrl });
  process.env.SST_RESOURCE_RateLimitTable = JSON.stringify({ type: "sst.aws.Dynamo", name: TABLE });
  process.env.AWS_ENDPOINT_URL_SQS = sqsEndpoint;
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamo.endpoint;
});

afterAll(async () => {
  sqs.destroy();
  await dynamo.close();
  await new Promise<void>((resolve) => sqsServer.close(() => resolve()));
});

describe("Lambda handler (API Gateway v2 → SQS, DynamoDB)", () => {
  it("answers 202 only after the envelope is in SQS with clientIp and receivedAt", async () => {
    const { handler } = (await import("../../../../functions/audit-ingest/handler.ts")) as unknown as {
      handler: Handler;
    };

    const result = await post(handler, validEnvelope(), "198.51.100.20");
    const received = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        MessageAttributeNames: ["All"],
      }),
    );

    expect(result.statusCode).toBe(202);
    expect(JSON.parse(result.body)).toMatchObject({ status: "accepted", outcome: "processed" });
    const event = decodeSqsEventMessage(received.Messages?.[0] ?? {});
    expect(event.envelope.eventId).toBe(UUID_A);
    expect(event.clientIp).toBe("198.51.100.20");
  });

  it("answers 400 in the ingestion shape and sends nothing", async () => {
    const { handler } = (await import("../../../../functions/audit-ingest/handler.ts")) as unknown as {
      handler: Handler;
    };

    const result = await post(handler, { eventId: 1 }, "198.51.100.21");

    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body).details.errors[0]).toEqual({
      instancePath: "/schemaVersion",
      message: "is required",
    });
  });

  it("refuses a missing token with 401 (token from the linked config)", async () => {
    const { handler } = (await import("../../../../functions/audit-ingest/handler.ts")) as unknown as {
      handler: Handler;
    };
    const event = apiGatewayEvent({
      method: "GET",
      path: "/api/v1/test-connection",
      sourceIp: "198.51.100.22",
    });

    expect((await handler(event, lambdaContext)).statusCode).toBe(401);
  });

  it("holds the per-IP limit across separate function instances sharing the table", async () => {
    const settings = {
      apiToken: "tok",
      maxBodyBytes: 1_048_576,
      correlationIdMaxLength: 64,
      compatibility: [{ serverRange: ">=15.0.0 <16.0.0", clientRange: ">=0.3.0 <0.4.0" }],
      cors: { allowedOrigins: [] },
      rateLimit: { enable: true, maxPerMinute: 3 },
    };
    // One fixed instant for both instances: no window boundary can fall inside the test.
    const clock = createManualClock();
    const instance = () =>
      handle(
        createLambdaIngestApp({
          settings,
          sqs,
          queueUrl,
          dynamo: dynamo.client,
          rateLimitTable: TABLE,
          logger: recordingLogger(),
          clock,
        }),
      ) as unknown as Handler;
    const [a, b] = [instance(), instance()];

    const statuses = [];
    for (const handler of [a, b, a, b])
      statuses.push((await post(handler, validEnvelope(), "2001:db8:9::1")).statusCode);

    expect(statuses).toEqual([202, 202, 202, 429]);
  });

  it("answers 413 without Retry-After for an event larger than the SQS queue's message size, and warns once", async () => {
    // Prepare: a queue that takes messages of at most 1 KiB (SQS's smallest MaximumMessageSize).
    const limitedUrl = (
      await sqs.send(
        new CreateQueueCommand({ QueueName: "audit-events-1k", Attributes: { MaximumMessageSize: "1024" } }),
      )
    ).QueueUrl as string;
    const logger = recordingLogger();
    const handler = handle(
      createLambdaIngestApp({
        settings: {
          apiToken: "tok",
          maxBodyBytes: 1_048_576,
          correlationIdMaxLength: 64,
          compatibility: [{ serverRange: ">=15.0.0 <16.0.0", clientRange: ">=0.3.0 <0.4.0" }],
          cors: { allowedOrigins: [] },
          rateLimit: { enable: false, maxPerMinute: 3 },
        },
        sqs,
        queueUrl: limitedUrl,
        dynamo: dynamo.client,
        rateLimitTable: TABLE,
        logger,
        clock: createManualClock(),
      }),
    ) as unknown as Handler;
    const large = validEnvelope({ type: "audit.event", payload: { pad: "x".repeat(2000) } });

    // Act
    const refused = [await post(handler, large), await post(handler, large)];
    const small = await post(handler, validEnvelope());

    // Assess
    for (const result of refused) {
      expect(result.statusCode).toBe(413);
      expect(Object.keys(result.headers).map((name) => name.toLowerCase())).not.toContain("retry-after");
      expect(JSON.parse(result.body)).toMatchObject({
        status: "error",
        outcome: "dropped",
        reason: expect.stringContaining("larger than the event queue can ever hold"),
      });
    }
    expect(small.statusCode).toBe(202);
    const warnings = logger.at("warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.fields).toMatchObject({ maxMessageBytes: 1024, refusedSinceLastWarning: 1 });
  });
});
