import { describe, expect, it } from "vitest";
import type { RateLimitStore } from "../../../../core/ports.ts";
import { createApp } from "../../../../functions/audit-ingest/app.ts";
import { createTestIngestApp, DEFAULT_TEST_SETTINGS } from "../../../helpers/ingest-app.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

describe("GET /api/v1/test-connection", () => {
  it("answers 200 ok without version members when no version was sent", async () => {
    const response = await createTestIngestApp().get("/api/v1/test-connection");

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: "ok",
      message: "Steward audit event API is reachable",
      timestamp: "2026-01-01T12:00:00.000Z",
    });
  });

  it.each([
    ["0.3.0", true],
    ["0.2.0", false],
    ["0.3.0, 0.2.0", true],
  ])("reports compatibility of %s as %s and still answers 200", async (version, compatible) => {
    const response = await createTestIngestApp().get("/api/v1/test-connection", {
      "x-audit-client-version": version,
    });

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      serverVersion: "15.0.0",
      auditClientVersion: version.split(",")[0],
      compatible,
    });
  });
});

describe("GET /documentation/json", () => {
  it("serves an OpenAPI 3.0 document of the three operations generated from the schemas", async () => {
    const response = await createTestIngestApp().get("/documentation/json");
    const doc = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }> };
    };

    expect(response.status).toBe(200);
    expect(doc.openapi).toMatch(/^3\.0\./);
    expect(Object.keys(doc.paths["/api/v1/audit-event"] ?? {})).toEqual(["post", "options"]);
    expect(Object.keys(doc.paths["/api/v1/test-connection"] ?? {})).toEqual(["get"]);
    const envelope = doc.components.schemas.AuditEventEnvelope;
    expect(envelope?.required).toEqual(["schemaVersion", "eventId", "timestamp", "type", "payload"]);
    expect(envelope?.properties?.schemaVersion).toEqual({ type: "integer", minimum: 1 });
    expect(envelope?.properties?.timestamp).toMatchObject({ type: "string", format: "date-time" });
    expect(doc.components.schemas.Payload_selection_state_changed).toBeDefined();
  });
});

describe("GET /documentation (API explorer)", () => {
  it("serves the explorer page on the ingest API's document, with a CSP allowing its own files only", async () => {
    const response = await createTestIngestApp().get("/documentation");

    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('data-openapi="/documentation/json"');
    expect(html).toContain('src="/documentation/assets/swagger-ui-bundle.js"');
    expect(html).not.toMatch(/https?:\/\//);
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
  });

  it("serves Swagger UI's files from the installed package and 404 for any other name", async () => {
    const app = createTestIngestApp();
    const bundle = await app.get("/documentation/assets/swagger-ui-bundle.js");
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(await bundle.text()).toContain("SwaggerUIBundle");
    expect((await app.get("/documentation/assets/swagger-ui.css")).status).toBe(200);
    expect((await app.get("/documentation/assets/package.json")).status).toBe(404);
  });
});

describe("unexpected errors", () => {
  it("answer 500 in the ingestion shape without a stack and log the error", async () => {
    const logger = recordingLogger();
    const failingStore: RateLimitStore = {
      increment: async () => {
        throw new Error("boom at /srv/core/x.ts:1");
      },
    };
    const app = createApp({
      settings: DEFAULT_TEST_SETTINGS,
      queue: { enqueue: async () => "queued" },
      rateLimitStore: failingStore,
      clientIp: () => "10.0.0.1",
      logger,
      clock: createManualClock(),
    });

    const response = await app.request("/api/v1/test-connection");
    const text = await response.text();

    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toMatchObject({
      status: "error",
      outcome: "error",
      reason: "Internal error while processing event",
    });
    expect(text).not.toMatch(/boom|\.ts|at /);
    expect(logger.at("error")[0]?.fields).toMatchObject({ error: "boom at /srv/core/x.ts:1" });
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("disabled ingest API (auditEvents.enable false)", () => {
  it("answers every request 404 in the ingestion shape", async () => {
    const { createClosedIngestApp, INGEST_DISABLED } = await import(
      "../../../../functions/audit-ingest/closed-app.ts"
    );

    const response = await createClosedIngestApp(INGEST_DISABLED).request("/api/v1/audit-event", {
      method: "POST",
      body: "{}",
    });

    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      status: "error",
      outcome: "dropped",
      reason: "Audit event API is disabled",
    });
  });
});
