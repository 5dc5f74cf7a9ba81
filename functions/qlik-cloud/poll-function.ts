/**
 * Lambda entry point of the scheduled Qlik Cloud polling (EventBridge → poll-lambda.ts). Linked
 * resources and the schedule's period (`STEWARD_QLIK_CLOUD_POLL_MINUTES`, set by
 * infra/qlik-cloud.ts from the same variable at deploy time) are read here and only here;
 * everything is built once per cold start. The lease's owner is this instance: one id per cold
 * start.
 */
import { randomUUID } from "node:crypto";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { Resource } from "sst";
import { createDynamoCloudCursorStore } from "../../core/adapters/aws/dynamo-cloud-cursor-store.ts";
import { createDynamoScheduleLease } from "../../core/adapters/aws/dynamo-schedule-lease.ts";
import { systemClock } from "../../core/system-clock.ts";
import { cloudFunctionParts } from "./cloud-function-parts.ts";
import { createPollLambda } from "./poll-lambda.ts";

const dynamo = new DynamoDBClient({});
const { input } = await cloudFunctionParts({
  configText: Resource.StewardConfig.value,
  dynamo,
  qlikCloudTable: Resource.QlikCloudTable.name,
  rateLimitTable: Resource.RateLimitTable.name,
  clock: systemClock,
});

export const handler = createPollLambda({
  input,
  cursors: createDynamoCloudCursorStore({ client: dynamo, tableName: Resource.QlikCloudTable.name }),
  lease: createDynamoScheduleLease({
    client: dynamo,
    tableName: Resource.ScheduleTable.name,
    owner: `qlik-cloud-poll ${randomUUID()}`,
  }),
  clock: systemClock,
  slotMs: Number(process.env.STEWARD_QLIK_CLOUD_POLL_MINUTES ?? "5") * 60_000,
});
