import { describe, expect, it } from "vitest";
import { EventQueueError, EventQueueUnavailableError } from "../../../../core/audit/queue-errors.ts";
import type { EnqueueResult, EventQueue } from "../../../../core/ports.ts";
import { envelopeOfType, UUID_A, validEnvelope } from "../../../helpers/audit-envelopes.ts";
import { createTestIngestApp, readBody } from "../../../helpers/ingest-app.ts";

const V = { "x-audit-client-version": "0.3.0" };

function queueAnswering(answer: () => Promise<EnqueueResult>): EventQueue {
  return { enqueue: answer };
}

describe("POST /api/v1/audit-event: accepted and refused content", () => {
  it("answers 202 in the ingestion shape and queues the event", async () => {
    const t = createTestIngestApp();

    const response = await t.post(validEnvelope(), V);
    await new Promise((resolve) => setImmediate(resolve));

    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({
      status: "accepted",
      receivedAt: "2026-01-01T12:00:00.000Z",
      outcome: "processed",
    });
    expect(t.handled.map((e) => e.envelope.eventId)).toEqual([UUID_A]);
    expect(t.handled[0]?.clientIp).toBe("203.0.113.5");
  });

  it("answers 400 Schema validation failed listing every violation with a JSON pointer", async () => {
    const t = createTestIngestApp();

    const response = await t.post(
      { schemaVersion: "1", eventId: UUID_A, type: "audit.event", payload: [] },
      V,
    );

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      status: "error",
      outcome: "dropped",
      reason: "Schema validation failed",
      details: {
        errors: [
          { instancePath: "/schemaVersion", message: "must be a number" },
          { instancePath: "/timestamp", message: "is required" },
          { instancePath: "/payload", message: "must be an object" },
        ],
      },
    });
    expect(t.handled).toEqual([]);
  });

  it("answers 422 One or more constraint violations listing every content violation", async () => {
    const t = createTestIngestApp();

    const response = await t.post(validEnvelope({ eventId: "nope", type: "unknown.type" }), V);

    expect(response.status).toBe(422);
    const body = await readBody(response);
    expect(body).toMatchObject({
      status: "error",
      outcome: "dropped",
      reason: "One or more constraint violations",
    });
    expect(body.details?.errors?.map((e) => e.message)).toEqual([
      'eventId is not a valid UUID ("nope")',
      'type is not a recognised event type ("unknown.type")',
    ]);
  });

  it("answers 422 with the version details for an incompatible client version", async () => {
    const t = createTestIngestApp();

    const response = await t.post(validEnvelope(), { "x-audit-client-version": "0.2.0" });

    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      reason: "Incompatible audit client version",
      details: { serverVersion: "15.0.0", auditClientVersion: "0.2.0", compatible: false },
    });
  });

  it("reads the X-Audit-QS-Version alias and uses the first of several values", async () => {
    const t = createTestIngestApp();

    const alias = await t.post(validEnvelope(), { "x-audit-qs-version": "0.2.0" });
    const several = await t.post(validEnvelope(), { "x-audit-client-version": " 0.3.1 , 0.2.0" });

    expect(alias.status).toBe(422);
    expect(several.status).toBe(202);
  });

  it("falls back to source.version when no version header is sent", async () => {
    const t = createTestIngestApp();

    const response = await t.post(validEnvelope({ source: { version: "0.2.0" } }));

    expect(response.status).toBe(422);
    expect((await readBody(response)).details?.auditClientVersion).toBe("0.2.0");
  });

  it("accepts an event without version and warns once per IP per minute with missingVersionCount", async () => {
    const t = createTestIngestApp();

    const statuses = [(await t.post(validEnvelope())).status, (await t.post(validEnvelope())).status];
    t.clock.advance(60_000);
    statuses.push((await t.post(validEnvelope())).status);

    const warns = t.logger.at("warn").filter((e) => e.message.includes("without client version"));
    expect(statuses).toEqual([202, 202, 202]);
    expect(warns.map((e) => e.fields?.missingVersionCount)).toEqual([1, 2]);
    expect(t.logger.at("debug").filter((e) => e.message.includes("without client version"))).toHaveLength(3);
  });

  it("answers 422 for a per-type payload violation", async () => {
    const t = createTestIngestApp();

    const response = await t.post(envelopeOfType("selection.state.changed", { details: "x" }), V);

    expect(response.status).toBe(422);
    expect((await readBody(response)).details?.errors?.[0]?.instancePath).toBe("/payload/event/details");
  });
});

describe("POST /api/v1/audit-event: the queue's answers", () => {
  it("answers 429 with retryAfter when the queue limiter refuses", async () => {
    const t = createTestIngestApp({ queue: queueAnswering(async () => "rate-limited") });

    const response = await t.post(validEnvelope(), V);

    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("60");
    expect(await response.json()).toMatchObject({ reason: "Rate limit exceeded", outcome: "dropped" });
  });

  it("answers 503 Event queue is full with Retry-After 30", async () => {
    const t = createTestIngestApp({ queue: queueAnswering(async () => "full") });

    const response = await t.post(validEnvelope(), V);

    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("30");
    expect(await response.json()).toMatchObject({ reason: "Event queue is full", outcome: "dropped" });
  });

  it("answers 413 without Retry-After for an event the queue can never hold", async () => {
    const t = createTestIngestApp({ queue: queueAnswering(async () => "too-large") });

    const response = await t.post(validEnvelope(), V);

    expect(response.status).toBe(413);
    expect(response.headers.get("retry-after")).toBeNull();
    expect(await response.json()).toMatchObject({
      status: "error",
      outcome: "dropped",
      reason: expect.stringContaining("larger than the event queue can ever hold"),
    });
  });

  it("answers 503 when the queue is unavailable for now", async () => {
    const t = createTestIngestApp({
      queue: queueAnswering(async () => {
        throw new EventQueueUnavailableError("throttled");
      }),
    });

    expect((await t.post(validEnvelope(), V)).status).toBe(503);
  });

  it("answers 500 outcome error without internals when the queue fails", async () => {
    const t = createTestIngestApp({
      queue: queueAnswering(async () => {
        throw new EventQueueError("secret internal detail at /srv/x.ts:12");
      }),
    });

    const response = await t.post(validEnvelope(), V);
    const text = await response.text();

    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toMatchObject({
      status: "error",
      outcome: "error",
      reason: "Internal error while processing event",
    });
    expect(text).not.toContain("secret");
    expect(text).not.toContain(".ts");
  });

  it("logs nothing at info or above for an accepted event", async () => {
    const t = createTestIngestApp();

    await t.post(validEnvelope(), V);

    expect(t.logger.entries.filter((e) => ["error", "warn", "info"].includes(e.level))).toEqual([]);
  });
});
