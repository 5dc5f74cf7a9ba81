/**
 * The REST Lambda (functions/rest/handler.ts) end to end: API Gateway v2 events through
 * hono/aws-lambda into the app wired with DynamoDB (dynalite) for key-values, schedules and
 * rate-limit counters, exactly as deployed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Schedule } from "../../../../core/ports.ts";
import { apiGatewayEvent, type LambdaResult, lambdaContext } from "../../../helpers/api-gateway-event.ts";
import { type DynaliteServer, startDynalite } from "../../../helpers/dynalite-server.ts";

type Handler = (event: unknown, context: unknown) => Promise<LambdaResult>;

let dynamo: DynaliteServer;
let handler: Handler;
const saved = { ...process.env };

beforeAll(async () => {
  dynamo = await startDynalite();
  await dynamo.createTable("rest-kv", "pk", "sk");
  await dynamo.createTable("rest-schedules", "id");
  await dynamo.createTable("rest-rate", "pk");
  process.env.SST_RESOURCE_App = JSON.stringify({ name: "steward", stage: "test" });
  process.env.SST_RESOURCE_StewardConfig = JSON.stringify({
    type: "sst.sst.Secret",
    value: [
      "Service:",
      "  logLevel: warn",
      "  restServer:",
      "    apiToken: tok",
      "    rateLimit: { enable: true, maxPerMinute: 1000 }",
      "    endpointsEnable: { fileCopy: true, fileDelete: true, appList: true, reloadTaskStart: true }",
      "  platform: { host: qlik.example.invalid }",
      "  keyValueStore: { maxNamespaces: 3 }",
      "  fileOperations:",
      "    copyApprovedDirectories: [{ fromDirectory: /tmp/a, toDirectory: /tmp/b }]",
      "    deleteApprovedDirectories: [/tmp/a]",
    ].join("\n"),
  });
  process.env.SST_RESOURCE_KeyValueTable = JSON.stringify({ type: "sst.aws.Dynamo", name: "rest-kv" });
  process.env.SST_RESOURCE_ScheduleTable = JSON.stringify({ type: "sst.aws.Dynamo", name: "rest-schedules" });
  process.env.SST_RESOURCE_RateLimitTable = JSON.stringify({ type: "sst.aws.Dynamo", name: "rest-rate" });
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamo.endpoint;
  ({ handler } = (await import("../../../../functions/rest/handler.ts")) as unknown as { handler: Handler });
});
afterAll(async () => {
  process.env = saved;
  await dynamo.close();
});

const call = (
  method: string,
  path: string,
  init: { query?: string; body?: unknown; headers?: Record<string, string> } = {},
) =>
  handler(
    apiGatewayEvent({
      method,
      path,
      ...(init.query === undefined ? {} : { query: init.query }),
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      headers: {
        authorization: "Bearer tok",
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...init.headers,
      },
    }),
    lambdaContext,
  );

describe("REST Lambda handler", () => {
  it("answers ping with rate-limit headers counted in DynamoDB", async () => {
    const result = await call("GET", "/v4/ping");
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toEqual({
      response: "Steward reporting for duty",
      serviceVersion: "15.0.0",
    });
    expect(result.headers["x-ratelimit-limit"]).toBe("1000");
  });

  it("refuses a request without the token from the linked config with 401", async () => {
    const result = await call("GET", "/v4/ping", { headers: { authorization: "" } });
    expect(result.statusCode).toBe(401);
  });

  it("does not serve or list file endpoints, even when enabled in the config", async () => {
    const listed = JSON.parse((await call("GET", "/v4/configfile/endpointsenabled")).body) as string[];
    expect(listed).toContain("keyValueStore");
    expect(listed).not.toContain("fileCopy");
    expect(
      (await call("PUT", "/v4/filecopy", { body: { fromFile: "/tmp/a/x", toFile: "/tmp/b/x" } })).statusCode,
    ).toBe(404);
  });

  it("does not serve or list platform endpoints (local / on-prem runtime only), even when enabled", async () => {
    const listed = JSON.parse((await call("GET", "/v4/configfile/endpointsenabled")).body) as string[];
    expect(listed).not.toContain("appList");
    expect(listed).not.toContain("reloadTaskStart");
    expect((await call("GET", "/v4/apps/list")).statusCode).toBe(404);
    expect((await call("PUT", "/v4/reloadtask/-/start")).statusCode).toBe(404);
  });

  it("serves the OpenAPI document covering the REST and ingest APIs (one API Gateway)", async () => {
    const result = await call("GET", "/documentation/json");
    expect(result.statusCode).toBe(200);
    const paths = Object.keys((JSON.parse(result.body) as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(
      expect.arrayContaining(["/v4/ping", "/api/v1/audit-event", "/api/v1/test-connection"]),
    );
    expect(paths).not.toContain("/v4/apps/list");
  });

  it("serves the API explorer and every file it loads from the function itself (no CDN)", async () => {
    const page = await call("GET", "/documentation");
    expect(page.statusCode).toBe(200);
    expect(page.headers?.["content-type"]).toMatch(/^text\/html/);
    const files = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(files).toHaveLength(3);
    for (const file of files) {
      expect(file).toMatch(/^\/documentation\/assets\//);
      const result = await call("GET", file);
      expect(result.statusCode).toBe(200);
      expect(result.body.length).toBeGreaterThan(100);
    }
  });

  it("stores and reads key-values in DynamoDB, deletes through X-HTTP-Method-Override", async () => {
    const created = await call("POST", "/v4/keyvalues/lambda", {
      body: { key: "k", value: "v", ttl: 60000 },
    });
    expect(created.statusCode).toBe(201);
    const read = await call("GET", "/v4/keyvalues/lambda", { query: "key=k" });
    expect(JSON.parse(read.body)).toEqual({ namespace: "lambda", key: "k", value: "v" });
    const deleted = await call("POST", "/v4/keyvalues/lambda/k", {
      headers: { "x-http-method-override": "DELETE" },
    });
    expect(deleted.statusCode).toBe(204);
    expect((await call("GET", "/v4/keyvalues/lambda", { query: "key=k" })).statusCode).toBe(404);
  });

  it("answers 507 with the reason for a namespace beyond keyValueStore.maxNamespaces, counted in DynamoDB", async () => {
    for (const namespace of JSON.parse((await call("GET", "/v4/keyvaluesnamespaces")).body) as string[])
      await call("DELETE", `/v4/keyvalues/${namespace}`);
    for (const namespace of ["limit-1", "limit-2", "limit-3"])
      expect(
        (await call("POST", `/v4/keyvalues/${namespace}`, { body: { key: "k", value: "v" } })).statusCode,
      ).toBe(201);

    const refused = await call("POST", "/v4/keyvalues/limit-4", { body: { key: "k", value: "v" } });

    expect(refused.statusCode).toBe(507);
    expect(JSON.parse(refused.body)).toEqual({
      statusCode: 507,
      error: "Insufficient Storage",
      message: "The key-value store already holds keyValueStore.maxNamespaces (3) namespaces",
    });
  });

  it("creates schedules in DynamoDB and reports their status from the stored state", async () => {
    const body = {
      name: "Nightly",
      cronSchedule: "0 30 2 * * *",
      timezone: "Europe/Stockholm",
      platformTaskId: "e3b27f50-b1c0-4d51-a5e5-a4c7c7c9d4a1",
      startupState: "stopped",
    };
    const created = await call("POST", "/v4/schedules", { body });
    expect(created.statusCode).toBe(201);
    const [schedule] = JSON.parse(created.body) as Schedule[];
    expect(schedule).toMatchObject({ ...body, tags: [], lastKnownState: "stopped" });
    const status = await call("GET", "/v4/schedules/status");
    expect(status.body).toBe(
      `${schedule?.id} cron="0 30 2 * * *" timezone=Europe/Stockholm state=stopped next=-\n`,
    );
    const started = await call("PUT", `/v4/schedules/${schedule?.id}/start`);
    expect(JSON.parse(started.body)).toMatchObject({ lastKnownState: "started" });
    expect((await call("GET", "/v4/schedules/status")).body).toMatch(
      /state=running next=\d{4}-\d\d-\d\dT00:30:00\.000Z|state=running next=\d{4}-\d\d-\d\dT01:30:00\.000Z/,
    );
  });
});
