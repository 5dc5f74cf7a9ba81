/**
 * Lambda entry point of the ingest API (API Gateway v2 → hono/aws-lambda). Linked resources are
 * read here and only here; config, clients and app are built once per cold start.
 */

import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SQSClient } from "@aws-sdk/client-sqs";
import { handle } from "hono/aws-lambda";
import { Resource } from "sst";
import { systemClock } from "../../core/system-clock.ts";
import { lambdaRuntime } from "../lambda-runtime.ts";
import { createDisabledApp } from "./disabled-app.ts";
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
  : createDisabledApp();

export const handler = handle(app);
