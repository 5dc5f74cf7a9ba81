import { describe, expect, it } from "vitest";
import { DISCARD_LIMIT_BYTES } from "../../../../functions/http/discard-limit.ts";
import { validEnvelope } from "../../../helpers/audit-envelopes.ts";
import { createTestIngestApp, readBody } from "../../../helpers/ingest-app.ts";

const V = { "x-audit-client-version": "0.3.0" };
const ORIGIN = "https://sense.example";

describe("authentication", () => {
  const withToken = () => createTestIngestApp({ settings: { apiToken: "s3cret" } });

  it.each([
    ["missing", {}],
    ["wrong", { authorization: "Bearer nope" }],
    ["empty", { authorization: "Bearer " }],
    ["another scheme", { authorization: "Token s3cret" }],
    ["a longer token", { authorization: "Bearer s3cret2" }],
  ])("answers 401 Unauthorized for a %s token", async (_label, headers) => {
    const t = withToken();

    const response = await t.post(validEnvelope(), { ...V, ...headers });

    expect(response.status).toBe(401);
    expect(await readBody(response)).toMatchObject({
      status: "error",
      outcome: "dropped",
      reason: "Unauthorized",
    });
    expect(t.logger.at("warn").some((e) => e.message === "Unauthorized request")).toBe(true);
  });

  it.each(["Bearer s3cret", "bearer   s3cret", "BEARER s3cret  "])("accepts %j", async (authorization) => {
    expect((await withToken().post(validEnvelope(), { ...V, authorization })).status).toBe(202);
  });

  it("checks the token before the body: an invalid envelope without token gets 401", async () => {
    expect((await withToken().post({}, V)).status).toBe(401);
  });

  it("guards test-connection with the same token", async () => {
    const t = withToken();

    expect((await t.get("/api/v1/test-connection")).status).toBe(401);
    expect((await t.get("/api/v1/test-connection", { authorization: "Bearer s3cret" })).status).toBe(200);
  });

  it("requires no token when none is configured", async () => {
    expect((await createTestIngestApp().post(validEnvelope(), V)).status).toBe(202);
  });
});

describe("HTTP rate limit", () => {
  const limited = () => createTestIngestApp({ settings: { rateLimit: { enable: true, maxPerMinute: 2 } } });

  it("sets x-ratelimit headers, refuses request max+1 with 429 and retry-after, per IP", async () => {
    const t = limited();
    t.clock.set(Date.UTC(2026, 0, 1, 12, 0, 15));

    const first = await t.post(validEnvelope(), V);
    await t.post(validEnvelope(), V);
    const third = await t.post(validEnvelope(), V);
    const otherIp = await t.post(validEnvelope(), V, "198.51.100.1");

    expect(first.headers.get("x-ratelimit-limit")).toBe("2");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("1");
    expect(first.headers.get("x-ratelimit-reset")).toBe(String(Date.UTC(2026, 0, 1, 12, 1, 0) / 1000));
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("45");
    expect(third.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(await readBody(third)).toMatchObject({
      status: "error",
      outcome: "dropped",
      reason: "Rate limit exceeded",
    });
    expect(otherIp.status).toBe(202);
  });

  it("keeps each request's response headers to itself (a 429's retry-after never reaches the next answer)", async () => {
    const t = limited();
    for (let i = 0; i < 2; i++) await t.post(validEnvelope(), V);

    const refused = await t.post(validEnvelope(), V);
    const next = await t.post(validEnvelope(), V, "198.51.100.1");

    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect(next.status).toBe(202);
    expect(next.headers.get("retry-after")).toBeNull();
    expect(next.headers.get("x-ratelimit-remaining")).toBe("1");
  });

  it("allows again once the window has passed", async () => {
    const t = limited();
    for (let i = 0; i < 3; i++) await t.post(validEnvelope(), V);

    t.clock.advance(60_000);

    expect((await t.post(validEnvelope(), V)).status).toBe(202);
  });

  it("shares one counter between both endpoints and counts failed requests", async () => {
    const t = limited();

    await t.get("/api/v1/test-connection");
    await t.post("{bad json", V);

    expect((await t.post(validEnvelope(), V)).status).toBe(429);
  });

  it("groups IPv6 clients by /64", async () => {
    const t = limited();

    await t.post(validEnvelope(), V, "2001:db8:1:2::1");
    await t.post(validEnvelope(), V, "2001:db8:1:2::2");

    expect((await t.post(validEnvelope(), V, "2001:db8:1:2:ffff::3")).status).toBe(429);
    expect((await t.post(validEnvelope(), V, "2001:db8:1:3::1")).status).toBe(202);
  });

  it("rejects over-limit requests before checking the token", async () => {
    const t = createTestIngestApp({
      settings: { apiToken: "s3cret", rateLimit: { enable: true, maxPerMinute: 1 } },
    });
    await t.post(validEnvelope(), V);

    expect((await t.post(validEnvelope(), { ...V, authorization: "Bearer wrong" })).status).toBe(429);
  });

  it("sends no rate-limit headers when disabled", async () => {
    const t = createTestIngestApp({ settings: { rateLimit: { enable: false, maxPerMinute: 1 } } });

    const responses = [await t.post(validEnvelope(), V), await t.post(validEnvelope(), V)];

    expect(responses.map((r) => r.status)).toEqual([202, 202]);
    expect(responses[0]?.headers.get("x-ratelimit-limit")).toBeNull();
  });
});

describe("request body", () => {
  it("answers 415 for a body that is not declared JSON", async () => {
    const t = createTestIngestApp();

    const plain = await t.post(validEnvelope(), { ...V, "content-type": "text/plain" });
    const none = await t.request("/api/v1/audit-event", { method: "POST", body: "{}" });

    expect(plain.status).toBe(415);
    expect(none.status).toBe(415);
    expect(await readBody(plain)).toMatchObject({ status: "error", outcome: "dropped" });
  });

  it("accepts application/json with parameters", async () => {
    const t = createTestIngestApp();

    expect(
      (await t.post(validEnvelope(), { ...V, "content-type": "Application/JSON; charset=utf-8" })).status,
    ).toBe(202);
  });

  it.each(["{bad", "", "[1,", "nul"])("answers 400 for malformed JSON %j", async (text) => {
    const response = await createTestIngestApp().post(text, V);

    expect(response.status).toBe(400);
    expect(await readBody(response)).toMatchObject({
      status: "error",
      outcome: "dropped",
      reason: "Malformed JSON body",
    });
  });

  it("answers 413 for a declared length over maxBodyBytes", async () => {
    const t = createTestIngestApp({ settings: { maxBodyBytes: 100 } });

    const response = await t.post(validEnvelope({ pad: "x".repeat(200) }), V);

    expect(response.status).toBe(413);
    expect(await readBody(response)).toMatchObject({ outcome: "dropped", reason: "Request body too large" });
  });

  it("answers 413 for an endless undeclared-length stream once it passes maxBodyBytes and the discard bound", async () => {
    const t = createTestIngestApp({ settings: { maxBodyBytes: 1000 } });
    let pulled = 0;
    // Endless: only a server that stops reading can answer.
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(400).fill(32));
      },
    });

    const response = await t.request("/api/v1/audit-event", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);

    expect(response.status).toBe(413);
    // In process the app itself pulls the stream (over HTTP the client's buffers decide): what is
    // over the limit is read and thrown away up to DISCARD_LIMIT_BYTES, then reading stops.
    if (t.frontDoor === "hono") expect(pulled * 400).toBeLessThan(1000 + DISCARD_LIMIT_BYTES + 10 * 400);
  });
});

describe("CORS", () => {
  const withOrigins = (allowedOrigins: string[]) =>
    createTestIngestApp({ settings: { cors: { allowedOrigins } } });
  const preflight = {
    origin: ORIGIN,
    "access-control-request-method": "POST",
    "access-control-request-headers": "authorization, content-type, x-audit-client-version",
  };

  it("answers an allowed preflight 204 with the exact headers, uncounted and unauthenticated", async () => {
    const t = createTestIngestApp({ settings: { apiToken: "s3cret", cors: { allowedOrigins: [ORIGIN] } } });

    const response = await t.request("/api/v1/audit-event", { method: "OPTIONS", headers: preflight });

    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(response.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
    expect(response.headers.get("access-control-allow-headers")).toBe(
      preflight["access-control-request-headers"],
    );
    expect(response.headers.get("access-control-max-age")).toBe("600");
    expect(response.headers.get("vary")).toContain("Origin");
    expect(response.headers.get("x-ratelimit-limit")).toBeNull();
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("refuses a preflight from a disallowed origin with 403 and no Access-Control-Allow-* header", async () => {
    const response = await withOrigins(["https://other.example"]).request("/api/v1/audit-event", {
      method: "OPTIONS",
      headers: preflight,
    });

    expect(response.status).toBe(403);
    expect([...response.headers.keys()].filter((name) => name.startsWith("access-control-allow"))).toEqual(
      [],
    );
    expect(await readBody(response)).toMatchObject({
      status: "error",
      outcome: "dropped",
      reason: "Origin not allowed",
    });
  });

  it("refuses every request carrying an Origin when the list is empty", async () => {
    expect((await withOrigins([]).post(validEnvelope(), { ...V, origin: ORIGIN })).status).toBe(403);
  });

  it("echoes an allowed origin with Vary and exposes Retry-After and x-ratelimit-*", async () => {
    const response = await withOrigins([ORIGIN]).post(validEnvelope(), { ...V, origin: ORIGIN });

    expect(response.status).toBe(202);
    expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(response.headers.get("vary")).toContain("Origin");
    const exposed = response.headers.get("access-control-expose-headers")?.toLowerCase() ?? "";
    for (const name of ["retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
      expect(exposed).toContain(name);
    }
  });

  it("allows any origin with *", async () => {
    const response = await withOrigins(["*"]).post(validEnvelope(), { ...V, origin: "https://any.example" });

    expect(response.status).toBe(202);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://any.example");
  });

  it("does not affect requests without Origin", async () => {
    expect((await withOrigins([]).post(validEnvelope(), V)).status).toBe(202);
  });
});

/** Headers the HTTP server adds to every answer, not the API. */
const TRANSPORT_HEADERS = new Set(["date", "connection", "keep-alive", "content-length"]);

describe("security headers and unknown routes", () => {
  it.each([
    ["a 202", (t: ReturnType<typeof createTestIngestApp>) => t.post(validEnvelope(), V)],
    ["a 400", (t: ReturnType<typeof createTestIngestApp>) => t.post("{", V)],
    ["a 404", (t: ReturnType<typeof createTestIngestApp>) => t.get("/nope")],
  ])("are set on %s", async (_label, send) => {
    const response = await send(createTestIngestApp());

    expect(
      Object.fromEntries(
        [...response.headers].filter(
          ([name]) =>
            !name.startsWith("x-ratelimit") && name !== "content-type" && !TRANSPORT_HEADERS.has(name),
        ),
      ),
    ).toEqual({
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
      "x-frame-options": "DENY",
      "content-security-policy": "default-src 'none'",
      "referrer-policy": "no-referrer",
    });
  });

  it("answers unknown routes 404 in the ingestion shape", async () => {
    const response = await createTestIngestApp().get("/api/v1/audit-event");

    expect(response.status).toBe(404);
    expect(await readBody(response)).toMatchObject({ status: "error", outcome: "dropped" });
  });
});
