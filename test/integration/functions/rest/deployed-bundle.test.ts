/**
 * The REST function as `sst deploy` bundles it (code splitting on, infra/functions.ts), run the
 * way Lambda runs it: a fresh `node` process imports `handler.mjs` from the bundle's directory and
 * calls the handler. What a first request does not need stays out of the files a cold start loads
 * (the API documents' generators, the MQTT client, the SDK's unused credential sources) and is
 * loaded from its chunk when first used. With the secret's default (no token) it is closed.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMIT_TABLE_KEY } from "../../../../core/adapters/aws/dynamo-rate-limit-store.ts";
import { apiGatewayEvent, type LambdaResult } from "../../../helpers/api-gateway-event.ts";
import { type DynaliteServer, startDynalite } from "../../../helpers/dynalite-server.ts";
import { bundleLambda, type LambdaBundle } from "../../../helpers/lambda-bundle.ts";
import { coldStartRun } from "../../../helpers/lambda-cold-start.ts";

const root = path.resolve(import.meta.dirname, "../../../..");

let outDir: string;
let bundle: LambdaBundle;
let dynamo: DynaliteServer;

beforeAll(async () => {
  outDir = mkdtempSync(path.join(tmpdir(), "steward-rest-bundle-"));
  bundle = await bundleLambda(path.join(root, "functions/rest/handler.ts"), outDir, {
    sdk: "bundled",
    splitting: true,
  });
  dynamo = await startDynalite();
  await dynamo.createTable("rate-limit", RATE_LIMIT_TABLE_KEY);
  await dynamo.createTable("key-values", "pk", "sk");
  await dynamo.createTable("schedules", "id");
}, 60_000);
afterAll(async () => {
  await dynamo?.close();
  rmSync(outDir, { recursive: true, force: true });
});

const CONFIG = "Service:\n  logLevel: warn\n  restServer:\n    apiToken: tok\n";

/** The function's first requests in a fresh process, with its tables in dynalite. */
async function coldStart(events: unknown[]): Promise<LambdaResult[]> {
  return (await coldStartWith(CONFIG, events)).results;
}

function coldStartWith(config: string, events: unknown[]) {
  return coldStartRun(bundle.file, events, {
    resources: {
      StewardConfig: { value: config },
      RateLimitTable: { name: "rate-limit" },
      KeyValueTable: { name: "key-values" },
      ScheduleTable: { name: "schedules" },
    },
    env: { AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint },
  });
}

describe("REST function bundled as deployed", () => {
  it("keeps the document generators, the MQTT client, the SDK's unused credential sources and the config template's text out of a cold start's files", () => {
    // Prepare
    const inputs = bundle.startInputs;

    // Assess
    expect(bundle.files).toBeGreaterThan(1);
    expect(bundle.startBytes).toBeLessThan(bundle.bytes);
    expect(inputs.some((input) => input.includes("functions/rest/app.ts"))).toBe(true);
    expect(readFileSync(bundle.file, "utf8")).not.toContain("Console/file log level");
    for (const lazy of [
      "functions/rest/openapi.ts",
      "functions/audit-ingest/openapi.ts",
      "functions/http/valibot-to-openapi.ts",
      "node_modules/mqtt/",
      "node_modules/@aws-sdk/nested-clients/",
    ]) {
      expect(inputs.filter((input) => input.includes(lazy))).toEqual([]);
    }
  });

  it("answers its first request in a fresh process, then the OpenAPI document and the explorer page from their chunks", async () => {
    // Act
    const [namespaces, document, page] = await coldStart([
      apiGatewayEvent({
        method: "GET",
        path: "/v4/keyvaluesnamespaces",
        headers: { authorization: "Bearer tok" },
      }),
      // The OpenAPI document needs the token like /v4 (it lists the enabled endpoints); the page does not.
      apiGatewayEvent({
        method: "GET",
        path: "/documentation/json",
        headers: { authorization: "Bearer tok" },
      }),
      apiGatewayEvent({ method: "GET", path: "/documentation" }),
    ]);

    // Assess
    expect(namespaces?.statusCode).toBe(200);
    expect(JSON.parse(namespaces!.body)).toEqual([]);
    expect(document?.statusCode).toBe(200);
    const openApi = JSON.parse(document!.body) as { openapi: string; paths: Record<string, unknown> };
    expect(openApi.openapi).toBe("3.0.3");
    expect(Object.keys(openApi.paths)).toEqual(
      expect.arrayContaining(["/v4/keyvaluesnamespaces", "/api/v1/audit-event"]),
    );
    expect(page?.statusCode).toBe(200);
    expect(page?.body).toContain('data-openapi="/documentation/json"');
  });
});

describe("REST function bundled as deployed, with the secret's default (Service: {})", () => {
  it("answers every request 503 in JSON without a stack and logs one ERROR naming restServer.apiToken", async () => {
    // Act
    const { results, stderrLines } = await coldStartWith("Service: {}", [
      apiGatewayEvent({ method: "GET", path: "/v4/schedules" }),
      apiGatewayEvent({
        method: "GET",
        path: "/v4/keyvaluesnamespaces",
        headers: { authorization: "Bearer x" },
      }),
      apiGatewayEvent({ method: "GET", path: "/documentation/json" }),
    ]);

    // Assess
    for (const result of results) {
      expect(result.statusCode).toBe(503);
      expect(result.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(result.body)).toEqual({
        statusCode: 503,
        error: "Service Unavailable",
        message: "REST API not configured: restServer.apiToken is not set",
      });
    }
    const errors = stderrLines.filter((line) => / error: /.test(line));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("every request is answered 503 until restServer.apiToken is set");
  });
});
