/**
 * Lambda entry point of the Qlik Cloud runs' queue consumer (SQS → hand-on-lambda.ts). Linked
 * resources are read here and only here; everything is built once per cold start, with the alerts
 * and the tenant clients the polling function builds too (cloud-function-parts.ts).
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { Resource } from "sst";
import { systemClock } from "../../core/system-clock.ts";
import { cloudFunctionParts } from "./cloud-function-parts.ts";
import { createHandOnLambda } from "./hand-on-lambda.ts";

const { input } = await cloudFunctionParts({
  configText: Resource.StewardConfig.value,
  dynamo: new DynamoDBClient({}),
  qlikCloudTable: Resource.QlikCloudTable.name,
  rateLimitTable: Resource.RateLimitTable.name,
  clock: systemClock,
});

export const handler = createHandOnLambda(input);
