/**
 * Lambda entry point of the Qlik Cloud webhook (API Gateway v2 → webhook-lambda.ts). Linked
 * resources are read here and only here; everything is built once per cold start. With
 * `qlikCloud.enable` off, or a tenant whose webhook is off, deliveries are answered 404.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SQSClient } from "@aws-sdk/client-sqs";
import { Resource } from "sst";
import { createSqsCloudRunQueue } from "../../core/adapters/aws/sqs-cloud-run-queue.ts";
import { systemClock } from "../../core/system-clock.ts";
import { webhookFunctionParts } from "./webhook-function-parts.ts";
import { createWebhookLambda } from "./webhook-lambda.ts";

const { input } = webhookFunctionParts({
  configText: Resource.StewardConfig.value,
  dynamo: new DynamoDBClient({}),
  qlikCloudTable: Resource.QlikCloudTable.name,
  queue: createSqsCloudRunQueue({ client: new SQSClient({}), queueUrl: Resource.QlikCloudRunQueue.url }),
  clock: systemClock,
});

export const handler = createWebhookLambda(input, systemClock);
