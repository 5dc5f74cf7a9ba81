/**
 * The ingest app as the Lambda runs it: events go to SQS, rate-limit counters to DynamoDB (shared
 * by every instance), the client IP comes from API Gateway. Without `auditEvents.apiToken` it is
 * closed: every request is answered 503 and one ERROR says what to set (functions/cloud-token.ts).
 * Built once per cold start by handler.ts; separate from it so tests can run it against local
 * stand-ins.
 */

import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { createDynamoRateLimitStore } from "../../core/adapters/aws/dynamo-rate-limit-store.ts";
import { createSqsEventQueue } from "../../core/adapters/aws/sqs-event-queue.ts";
import type { Clock, Logger } from "../../core/ports.ts";
import { closedWithoutToken, INGEST_TOKEN } from "../cloud-token.ts";
import { lambdaClientIp } from "../http/lambda-client-ip.ts";
import { type AuditIngestSettings, createApp } from "./app.ts";
import { createClosedIngestApp } from "./closed-app.ts";

export interface LambdaIngestAppOptions {
  settings: AuditIngestSettings;
  sqs: SQSClient;
  queueUrl: string;
  dynamo: DynamoDBClient;
  rateLimitTable: string;
  logger: Logger;
  clock: Clock;
}

export function createLambdaIngestApp(options: LambdaIngestAppOptions): ReturnType<typeof createApp> {
  if (options.settings.apiToken === "") {
    return createClosedIngestApp(closedWithoutToken(options.logger, INGEST_TOKEN));
  }
  return createApp({
    settings: options.settings,
    queue: createSqsEventQueue({
      client: options.sqs,
      queueUrl: options.queueUrl,
      logger: options.logger,
      clock: options.clock,
    }),
    rateLimitStore: createDynamoRateLimitStore({ client: options.dynamo, tableName: options.rateLimitTable }),
    clientIp: lambdaClientIp,
    logger: options.logger,
    clock: options.clock,
  });
}
