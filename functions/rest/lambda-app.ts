/**
 * The REST app as the Lambda runs it — one function for every group except files:
 * key-value entries and schedules in DynamoDB (shared with an on-prem agent that fires the
 * schedules; Lambda never fires them, so schedule status is derived from the stored states),
 * rate-limit counters in DynamoDB (shared by all instances), the client IP from API Gateway, the
 * API explorer's files from the `swagger-ui-dist` package installed beside the bundle.
 * Files are not wired: the approved directories live on the on-prem servers, not in a Lambda's
 * ephemeral /tmp, so those endpoints are neither served nor listed here. Nor is
 * the platform (apps, reload tasks): its client key and network live on-prem, where the local
 * runtime serves those endpoints (docs/management-api.md).
 * With `restServer.enable` false every request is answered 404; without `restServer.apiToken`
 * 503, and one ERROR says what to set (functions/cloud-token.ts): no route, store or client runs.
 * Separate from handler.ts so tests run it against dynalite.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { Hono } from "hono";
import { createDynamoKeyValueStore } from "../../core/adapters/aws/dynamo-key-value-store.ts";
import { createDynamoRateLimitStore } from "../../core/adapters/aws/dynamo-rate-limit-store.ts";
import { createDynamoScheduleStore } from "../../core/adapters/aws/dynamo-schedule-store.ts";
import {
  buildBrokerClient,
  buildChatClient,
  buildObservabilityClient,
} from "../../core/adapters/outbound-clients.ts";
import { swaggerUiAssets } from "../../core/adapters/swagger-ui-assets.ts";
import type { Config } from "../../core/config/index.ts";
import type { Clock, Logger } from "../../core/ports.ts";
import { createScheduleManager } from "../../core/schedules/index.ts";
import { closedWithoutToken, REST_TOKEN } from "../cloud-token.ts";
import { createClosedApp } from "../http/closed-app.ts";
import { lambdaClientIp } from "../http/lambda-client-ip.ts";
import type { HttpProblem } from "../http/problem.ts";
import { createApp } from "./app.ts";
import { formatRestError } from "./rest-errors.ts";

export interface LambdaRestAppOptions {
  config: Config;
  logger: Logger;
  clock: Clock;
  dynamo: DynamoDBClient;
  keyValueTable: string;
  scheduleTable: string;
  rateLimitTable: string;
}

/** A Lambda's first request may arrive while the broker connection is still opening. */
const LAMBDA_BROKER_CONNECT_WAIT_MS = 3000;

export const REST_DISABLED: HttpProblem = { status: 404, reason: "REST API is disabled" };

export function createLambdaRestApp(options: LambdaRestAppOptions): Hono {
  const { config, logger, clock, dynamo } = options;
  if (!config.restServer.enable) return createClosedApp(REST_DISABLED, formatRestError);
  if (config.restServer.apiToken === "") {
    return createClosedApp(closedWithoutToken(logger, REST_TOKEN), formatRestError);
  }
  const endpoints = config.restServer.endpointsEnable;
  const scheduleStore = createDynamoScheduleStore({ client: dynamo, tableName: options.scheduleTable });
  return createApp({
    config: config.restServer,
    logger,
    clock,
    clientIp: lambdaClientIp,
    explorerAssets: swaggerUiAssets(),
    rateLimitStore: createDynamoRateLimitStore({ client: dynamo, tableName: options.rateLimitTable }),
    services: {
      keyValues: createDynamoKeyValueStore({
        client: dynamo,
        tableName: options.keyValueTable,
        clock,
        maxKeysPerNamespace: config.keyValueStore.maxKeysPerNamespace,
        maxNamespaces: config.keyValueStore.maxNamespaces,
        maxTotalBytes: config.keyValueStore.maxTotalBytes,
      }),
      schedules: createScheduleManager({ store: scheduleStore, clock }),
      // Outbound clients are built only when their endpoint is on (no idle broker connection).
      ...(endpoints.mqttPublishMessage
        ? { broker: buildBrokerClient(config, logger, { connectWaitMs: LAMBDA_BROKER_CONNECT_WAIT_MS }) }
        : {}),
      ...(endpoints.observabilityEvent || endpoints.observabilityMetric
        ? { observability: buildObservabilityClient(config, clock, logger) }
        : {}),
      ...(endpoints.chatPostMessage ? { chat: buildChatClient(config) } : {}),
    },
  });
}
