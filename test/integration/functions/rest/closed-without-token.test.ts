/**
 * The REST app as the Lambda builds it (functions/rest/lambda-app.ts) from the StewardConfig
 * secret's default, `Service: {}`: no `restServer.apiToken`, so every request is answered 503 in
 * the REST error shape and one ERROR at build (the cold start) says what to set. API Gateway v2
 * events go through hono/aws-lambda; the tables are in dynalite and stay untouched.
 */
import { ScanCommand } from "@aws-sdk/client-dynamodb";
import type { Hono } from "hono";
import { handle } from "hono/aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMIT_TABLE_KEY } from "../../../../core/adapters/aws/dynamo-rate-limit-store.ts";
import { lambdaRuntime } from "../../../../functions/lambda-runtime.ts";
import { createLambdaRestApp } from "../../../../functions/rest/lambda-app.ts";
import { apiGatewayEvent, type LambdaResult, lambdaContext } from "../../../helpers/api-gateway-event.ts";
import { type DynaliteServer, startDynalite } from "../../../helpers/dynalite-server.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { type RecordingLogger, recordingLogger } from "../../../helpers/recording-logger.ts";

type Handler = (event: unknown, context: unknown) => Promise<LambdaResult>;

let dynamo: DynaliteServer;

beforeAll(async () => {
  dynamo = await startDynalite();
  await dynamo.createTable("key-values", "pk", "sk");
  await dynamo.createTable("schedules", "id");
  await dynamo.createTable("rate-limit", RATE_LIMIT_TABLE_KEY);
});
afterAll(async () => {
  await dynamo.close();
});

/** The Lambda's app for the secret's text `configText`, and what it logged while being built. */
function lambdaApp(configText: string): { handler: Handler; logger: RecordingLogger } {
  const logger = recordingLogger();
  const app: Hono = createLambdaRestApp({
    config: lambdaRuntime(configText).config,
    logger,
    clock: createManualClock(),
    dynamo: dynamo.client,
    keyValueTable: "key-values",
    scheduleTable: "schedules",
    rateLimitTable: "rate-limit",
  });
  return { handler: handle(app) as unknown as Handler, logger };
}

const schedule = {
  name: "Every second",
  cronSchedule: "* * * * * *",
  timezone: "UTC",
  platformTaskId: "e3b27f50-b1c0-4d51-a5e5-a4c7c7c9d4a1",
  startupState: "started",
};

const requests = [
  { method: "GET", path: "/v4/ping" },
  { method: "GET", path: "/v4/schedules" },
  { method: "POST", path: "/v4/schedules", body: JSON.stringify(schedule) },
  { method: "PUT", path: "/v4/schedules/stopall" },
  { method: "POST", path: "/v4/keyvalues/state", body: JSON.stringify({ key: "k", value: "v" }) },
  { method: "GET", path: "/v4/keyvaluesnamespaces" },
  { method: "GET", path: "/documentation/json" },
  { method: "OPTIONS", path: "/v4/ping" },
];

async function itemCount(table: string): Promise<number> {
  return (await dynamo.client.send(new ScanCommand({ TableName: table }))).Count ?? 0;
}

describe("REST Lambda app with the secret's default (Service: {})", () => {
  it("answers every request 503 in JSON without a stack, stores nothing, and logs one ERROR naming restServer.apiToken", async () => {
    // Prepare
    const { handler, logger } = lambdaApp("Service: {}");

    // Act
    const results: LambdaResult[] = [];
    for (const request of requests) {
      const headers = request.body === undefined ? {} : { "content-type": "application/json" };
      results.push(await handler(apiGatewayEvent({ ...request, headers }), lambdaContext));
    }

    // Assess
    for (const result of results) {
      expect(result.statusCode).toBe(503);
      expect(result.headers["content-type"]).toBe("application/json");
      expect(result.headers["x-content-type-options"]).toBe("nosniff");
      expect(JSON.parse(result.body)).toEqual({
        statusCode: 503,
        error: "Service Unavailable",
        message: "REST API not configured: restServer.apiToken is not set",
      });
    }
    expect(await itemCount("schedules")).toBe(0);
    expect(await itemCount("key-values")).toBe(0);
    expect(await itemCount("rate-limit")).toBe(0);
    const errors = logger.at("error");
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain("every request is answered 503 until restServer.apiToken is set");
    expect(errors[0]?.fields).toEqual({ setting: "restServer.apiToken" });
  });

  it("with restServer.enable false, answers every request 404 and logs no ERROR", async () => {
    // Prepare
    const { handler, logger } = lambdaApp("Service:\n  restServer:\n    enable: false\n");

    // Act
    const result = await handler(apiGatewayEvent({ method: "GET", path: "/v4/schedules" }), lambdaContext);

    // Assess
    expect(result.statusCode).toBe(404);
    expect(JSON.parse(result.body)).toEqual({
      statusCode: 404,
      error: "Not Found",
      message: "REST API is disabled",
    });
    expect(logger.at("error")).toEqual([]);
  });
});
