/**
 * Lambda entry point of the ingest API (API Gateway v2 → hono/aws-lambda). Linked resources are
 * read here and only here; everything is built once per cold start.
 */

import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SQSClient } from "@aws-sdk/client-sqs";
import { handle } from "hono/aws-lambda";
import { Resource } from "sst";
import { consoleSink } from "../../core/logging/console-sink.ts";
import { createLogger } from "../../core/logging/logger.ts";
import { systemClock } from "../../core/system-clock.ts";
import { settingsFromConfigText } from "./interim-settings.ts";
import { createLambdaIngestApp } from "./lambda-app.ts";

const logger = createLogger({ level: "info", sinks: [consoleSink()] }).child("audit-ingest");

const app = createLambdaIngestApp({
  settings: settingsFromConfigText(Resource.StewardConfig.value),
  sqs: new SQSClient({}),
  queueUrl: Resource.AuditEventQueue.url,
  dynamo: new DynamoDBClient({}),
  rateLimitTable: Resource.RateLimitTable.name,
  logger,
  clock: systemClock,
});

export const handler = handle(app);
