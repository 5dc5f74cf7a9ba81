/**
 * Lambda entry point of the Qlik Cloud webhook (API Gateway v2 → webhook-lambda.ts). Linked
 * resources are read here and only here; everything is built once per cold start. With
 * `qlikCloud.enable` off, or a tenant whose webhook is off, deliveries are answered 404.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { Resource } from "sst";
import { systemClock } from "../../core/system-clock.ts";
import { cloudFunctionParts } from "./cloud-function-parts.ts";
import { createWebhookLambda } from "./webhook-lambda.ts";

const { input } = await cloudFunctionParts({
  configText: Resource.StewardConfig.value,
  dynamo: new DynamoDBClient({}),
  qlikCloudTable: Resource.QlikCloudTable.name,
  rateLimitTable: Resource.RateLimitTable.name,
  clock: systemClock,
});

export const handler = createWebhookLambda(input, systemClock);
