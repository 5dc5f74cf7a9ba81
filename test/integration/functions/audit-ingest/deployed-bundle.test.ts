/**
 * The ingest function as `sst deploy` bundles it (code splitting on, infra/functions.ts), run the
 * way Lambda runs it: a fresh `node` process imports `handler.mjs` from the bundle's directory and
 * calls the handler. The API documents' generator stays out of the files a cold start loads and
 * is loaded from its chunk by the first request for the document or the explorer page. With the
 * secret's default (no token) it is closed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiGatewayEvent, type LambdaResult } from "../../../helpers/api-gateway-event.ts";
import { bundleLambda, type LambdaBundle } from "../../../helpers/lambda-bundle.ts";
import { coldStartRun } from "../../../helpers/lambda-cold-start.ts";

const root = path.resolve(import.meta.dirname, "../../../..");

let outDir: string;
let bundle: LambdaBundle;

beforeAll(async () => {
  outDir = mkdtempSync(path.join(tmpdir(), "steward-ingest-bundle-"));
  bundle = await bundleLambda(path.join(root, "functions/audit-ingest/handler.ts"), outDir, {
    sdk: "bundled",
    splitting: true,
  });
}, 60_000);
afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
});

const CONFIG = "Service:\n  logLevel: warn\n  auditEvents:\n    apiToken: tok\n";

async function coldStart(events: unknown[]): Promise<LambdaResult[]> {
  return (await coldStartWith(CONFIG, events)).results;
}

/** None of these requests reaches SQS or DynamoDB: the linked names only need to exist. */
function coldStartWith(config: string, events: unknown[]) {
  return coldStartRun(bundle.file, events, {
    resources: {
      StewardConfig: { value: config },
      AuditEventQueue: { url: "http://127.0.0.1:9/queue/audit-events" },
      RateLimitTable: { name: "rate-limit" },
    },
  });
}

describe("ingest function bundled as deployed", () => {
  it("keeps the OpenAPI document's generator out of a cold start's files", () => {
    // Prepare
    const inputs = bundle.startInputs;

    // Assess
    expect(bundle.files).toBeGreaterThan(1);
    expect(inputs.some((input) => input.includes("functions/audit-ingest/ingest-handler.ts"))).toBe(true);
    for (const lazy of ["functions/audit-ingest/openapi.ts", "functions/http/valibot-to-openapi.ts"]) {
      expect(inputs.filter((input) => input.includes(lazy))).toEqual([]);
    }
  });

  it("answers in a fresh process, then serves the OpenAPI document and the explorer page from their chunk", async () => {
    // Act
    const [unknown, document, page] = await coldStart([
      apiGatewayEvent({ method: "GET", path: "/api/v1/nothing-here" }),
      apiGatewayEvent({ method: "GET", path: "/documentation/json" }),
      apiGatewayEvent({ method: "GET", path: "/documentation" }),
    ]);

    // Assess
    expect(unknown?.statusCode).toBe(404);
    expect(JSON.parse(unknown!.body)).toMatchObject({ status: "error", outcome: "dropped" });
    expect(document?.statusCode).toBe(200);
    const openApi = JSON.parse(document!.body) as { openapi: string; paths: Record<string, unknown> };
    expect(openApi.openapi).toBe("3.0.3");
    expect(Object.keys(openApi.paths)).toEqual(
      expect.arrayContaining(["/api/v1/audit-event", "/api/v1/test-connection"]),
    );
    expect(page?.statusCode).toBe(200);
    expect(page?.body).toContain('data-openapi="/documentation/json"');
  });
});

describe("ingest function bundled as deployed, with the secret's default (Service: {})", () => {
  it("answers every request 503 in the ingestion shape without a stack and logs one ERROR naming auditEvents.apiToken", async () => {
    // Act
    const { results, stderrLines } = await coldStartWith("Service: {}", [
      apiGatewayEvent({
        method: "POST",
        path: "/api/v1/audit-event",
        headers: { "content-type": "application/json" },
        body: "{}",
      }),
      apiGatewayEvent({ method: "GET", path: "/api/v1/test-connection" }),
      apiGatewayEvent({ method: "GET", path: "/documentation/json" }),
    ]);

    // Assess
    for (const result of results) {
      expect(result.statusCode).toBe(503);
      expect(result.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(result.body)).toEqual({
        status: "error",
        receivedAt: expect.any(String),
        outcome: "dropped",
        reason: "Audit event API not configured: auditEvents.apiToken is not set",
      });
    }
    const errors = stderrLines.filter((line) => / error: /.test(line));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("every request is answered 503 until auditEvents.apiToken is set");
  });
});
