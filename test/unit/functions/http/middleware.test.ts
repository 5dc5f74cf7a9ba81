/**
 * The shared middleware with another app's body shape: nothing in functions/http is tied to the
 * ingestion response, so the REST API can reuse it with its own ErrorBodyFormatter.
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createMemoryRateLimitStore } from "../../../../core/adapters/local/memory-rate-limit-store.ts";
import { createFixedWindowLimiter } from "../../../../core/ratelimit/fixed-window-limiter.ts";
import { bearerAuth, bearerTokenOf } from "../../../../functions/http/bearer-auth.ts";
import { createSecretMatcher } from "../../../../functions/http/constant-time.ts";
import { cors } from "../../../../functions/http/cors.ts";
import { errorHandler } from "../../../../functions/http/error-handler.ts";
import { jsonBody } from "../../../../functions/http/json-body.ts";
import type { ErrorBodyFormatter } from "../../../../functions/http/problem.ts";
import { rateLimit } from "../../../../functions/http/rate-limit.ts";
import { respondJson } from "../../../../functions/http/response-headers.ts";
import { securityHeaders } from "../../../../functions/http/security-headers.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

const restShape: ErrorBodyFormatter = (c, problem) =>
  respondJson(c, { error: problem.reason, code: problem.status }, problem.status);

function restApp() {
  const clock = createManualClock();
  const logger = recordingLogger();
  const app = new Hono<{ Variables: { jsonBody: unknown } }>();
  app.onError(errorHandler({ logger, formatError: restShape, reason: "Internal error" }));
  app.use("*", securityHeaders(), cors({ allowedOrigins: ["https://ui.example"], formatError: restShape }));
  app.use(
    "/v4/*",
    rateLimit({
      limiter: createFixedWindowLimiter({ maxPerWindow: 1 }, { store: createMemoryRateLimitStore(), clock }),
      clientIp: () => "10.0.0.1",
      clock,
      formatError: restShape,
    }),
    bearerAuth({ token: "t", formatError: restShape, logger, clientIp: () => "10.0.0.1" }),
  );
  app.post("/v4/echo", jsonBody({ maxBytes: 64, formatError: restShape }), (c) =>
    respondJson(c, c.get("jsonBody"), 200),
  );
  app.get("/boom", () => {
    throw new Error("kaput");
  });
  return app;
}

describe("shared HTTP middleware with a custom error body", () => {
  it("answers refusals in the app's own shape", async () => {
    const app = restApp();

    const forbidden = await app.request("/v4/echo", {
      method: "POST",
      headers: { origin: "https://evil.example" },
    });
    const unauthorized = await app.request("/v4/echo", { method: "POST" });
    const limited = await app.request("/v4/echo", { method: "POST" });
    const failed = await app.request("/boom");

    expect(await forbidden.json()).toEqual({ error: "Origin not allowed", code: 403 });
    expect(await unauthorized.json()).toEqual({ error: "Unauthorized", code: 401 });
    expect(await limited.json()).toEqual({ error: "Rate limit exceeded", code: 429 });
    expect(await failed.json()).toEqual({ error: "Internal error", code: 500 });
    expect(failed.headers.get("x-frame-options")).toBe("DENY");
  });

  it("passes a good request through every middleware", async () => {
    const response = await restApp().request("/v4/echo", {
      method: "POST",
      body: '{"a":1}',
      headers: {
        authorization: "Bearer t",
        "content-type": "application/json",
        origin: "https://ui.example",
      },
    });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ a: 1 });
    expect(response.headers.get("access-control-allow-origin")).toBe("https://ui.example");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("0");
  });
});

describe("token helpers", () => {
  it.each([
    [undefined, undefined],
    ["Bearer abc", "abc"],
    ["bearer   abc  ", "abc"],
    ["Bearer", undefined],
    ["Bearer    ", undefined],
    ["Basic abc", undefined],
  ])("bearerTokenOf(%j) is %j", (header, token) => {
    expect(bearerTokenOf(header)).toBe(token);
  });

  it("matches only the exact secret", () => {
    const matches = createSecretMatcher("s3cret");

    expect([matches("s3cret"), matches("s3cre"), matches("s3cret!"), matches("S3cret"), matches("")]).toEqual(
      [true, false, false, false, false],
    );
  });

  it("compares non-ASCII secrets exactly", () => {
    const matches = createSecretMatcher("pässwörd-🔑");

    expect([
      matches("pässwörd-🔑"),
      matches("passwörd-🔑"),
      matches("pässwörd-🔒"),
      matches("pässwörd-"),
    ]).toEqual([true, false, false, false]);
  });
});
