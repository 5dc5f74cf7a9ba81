/**
 * Lambda entry point of the ingest API (API Gateway v2 → hono/aws-lambda). Linked resources are
 * read here and only here; config, clients and app are built once per cold start. The API answers
 * 404 when `auditEvents.enable` is false, and 503 while it has no token (lambda-app.ts).
 */

import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SQSClient } from "@aws-sdk/client-sqs";
import { handle } from "hono/aws-lambda";
import { Resource } from "sst";
import { systemClock } from "../../core/system-clock.ts";
import { lambdaRuntime } from "../lambda-runtime.ts";
import { createClosedIngestApp, INGEST_DISABLED } from "./closed-app.ts";
import { createLambdaIngestApp } from "./lambda-app.ts";

const { config, logger } = lambdaRuntime(Resource.StewardConfig.value);

const app = config.auditEvents.enable
  ? createLambdaIngestApp({
      settings: config.auditEvents,
      sqs: new SQSClient({}),
      queueUrl: Resource.AuditEventQueue.url,
      dynamo: new DynamoDBClient({}),
      rateLimitTable: Resource.RateLimitTable.name,
      logger: logger.child("audit-ingest"),
      clock: systemClock,
    })
  : createClosedIngestApp(INGEST_DISABLED);

export const handler = handle(app);
