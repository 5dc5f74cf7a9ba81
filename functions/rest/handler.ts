/**
 * Lambda entry point of the REST API (API Gateway v2 → hono/aws-lambda): one function routes
 * every /v4 group but files (see lambda-app.ts). One function rather than one per group because
 * the groups share the config parse, the DynamoDB client and the rate-limit counter, are small,
 * and a single warm function answers every group without a cold start per group.
 * Linked resources are read here and only here; everything is built once per cold start.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { handle } from "hono/aws-lambda";
import { Resource } from "sst";
import { systemClock } from "../../core/system-clock.ts";
import { lambdaRuntime } from "../lambda-runtime.ts";
import { createLambdaRestApp } from "./lambda-app.ts";

const { config, logger } = lambdaRuntime(Resource.StewardConfig.value);

export const handler = handle(
  createLambdaRestApp({
    config,
    logger: logger.child("rest"),
    clock: systemClock,
    dynamo: new DynamoDBClient({}),
    keyValueTable: Resource.KeyValueTable.name,
    scheduleTable: Resource.ScheduleTable.name,
    rateLimitTable: Resource.RateLimitTable.name,
  }),
);
