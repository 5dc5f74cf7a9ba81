/**
 * The ingest function as `sst deploy` bundles it (code splitting on, infra/functions.ts), run the
 * way Lambda runs it: a fresh `node` process imports `handler.mjs` from the bundle's directory and
 * calls the handler. The API documents' generator stays out of the files a cold start loads and
 * is loaded from its chunk by the first request for the document or the explorer page.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiGatewayEvent, type LambdaResult } from "../../../helpers/api-gateway-event.ts";
import { bundleLambda, type LambdaBundle } from "../../../helpers/lambda-bundle.ts";
import { coldStart as coldStartBundle } from "../../../helpers/lambda-cold-start.ts";

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

/** None of these requests reaches SQS or DynamoDB: the linked names only need to exist. */
function coldStart(events: unknown[]): Promise<LambdaResult[]> {
  return coldStartBundle(bundle.file, events, {
    resources: {
      StewardConfig: { value: "Service:\n  logLevel: warn\n" },
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
