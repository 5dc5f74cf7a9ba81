import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createObservabilityPoster } from "../../../../../core/adapters/http-posters/observability-poster.ts";
import type { ObservabilityDestination } from "../../../../../core/observability/observability.ts";
import { FeatureDisabledError, UpstreamError } from "../../../../../core/upstream-error.ts";
import { type CaptureServer, startCaptureServer } from "../../../../helpers/capture-server.ts";
import { createSteppingClock } from "../../../../helpers/stepping-clock.ts";

let server: CaptureServer;
const clock = createSteppingClock(Date.UTC(2026, 0, 1));
const accounts = [
  { accountName: "prod", insertApiKey: "key-prod-secret", accountId: 1111 },
  { accountName: "test", insertApiKey: "key-test-secret", accountId: "2222" },
];

function destination(overrides: Partial<ObservabilityDestination> = {}): ObservabilityDestination {
  return {
    url: `${server.url}/`,
    headers: [{ name: "X-Team", value: "ops" }],
    staticAttributes: [
      { name: "env", value: "prod" },
      { name: "site", value: "hq" },
    ],
    accounts,
    ...overrides,
  };
}

beforeAll(async () => {
  server = await startCaptureServer();
});
afterAll(async () => {
  await server.stop();
});
beforeEach(() => {
  server.requests.length = 0;
  server.respondWith(202);
});

describe("observability poster", () => {
  it("posts an event once per account with the account's Api-Key and merged attributes", async () => {
    const poster = createObservabilityPoster({
      event: destination(),
      metric: destination({ url: `${server.url}/metric/v1` }),
      clock,
    });
    const result = await poster.postEvent({
      eventType: "reload-failed",
      timestamp: 1642164296053,
      attributes: [
        { name: "env", value: "override" },
        { name: "host.name", value: "srv1" },
      ],
    });
    expect(result).toEqual({ observabilityResultCode: "202", observabilityResultText: "Accepted" });
    const byPath = [...server.requests].sort((a, b) => a.path.localeCompare(b.path));
    expect(byPath.map((request) => [request.method, request.path, request.headers["api-key"]])).toEqual([
      ["POST", "/v1/accounts/1111/events", "key-prod-secret"],
      ["POST", "/v1/accounts/2222/events", "key-test-secret"],
    ]);
    for (const request of byPath) {
      expect(request.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(request.headers["x-team"]).toBe("ops");
      expect(JSON.parse(request.body)).toEqual({
        env: "override",
        site: "hq",
        "host.name": "srv1",
        eventType: "reload-failed",
        timestamp: 1642164296053,
      });
    }
  });

  it("posts a metric in the metric API's [{common, metrics}] shape, using now when no timestamp is given", async () => {
    const poster = createObservabilityPoster({
      event: destination(),
      metric: destination({ url: `${server.url}/metric/v1`, accounts: [accounts[0]!] }),
      clock,
    });
    await poster.postMetric({
      name: "memory.heap",
      type: "gauge",
      value: 2.3,
      interval: 60_000,
      attributes: [{ name: "unit", value: "GB" }],
    });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.path).toBe("/metric/v1");
    expect(request?.headers["api-key"]).toBe("key-prod-secret");
    expect(JSON.parse(request?.body ?? "")).toEqual([
      {
        common: {
          timestamp: Date.UTC(2026, 0, 1),
          "interval.ms": 60_000,
          attributes: { env: "prod", site: "hq", unit: "GB" },
        },
        metrics: [{ name: "memory.heap", type: "gauge", value: 2.3 }],
      },
    ]);
  });

  it("answers UpstreamError naming the failed account, without the API key", async () => {
    server.respondWith((request) => (request.path.includes("2222") ? 403 : 202));
    const poster = createObservabilityPoster({ event: destination(), metric: destination(), clock });
    const failure = await poster
      .postEvent({ eventType: "x", attributes: [] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect((failure as Error).message).toBe("Posting the event failed for test: HTTP 403");
    expect((failure as Error).message).not.toContain("secret");
  });

  it("answers UpstreamError when the platform does not answer", async () => {
    const poster = createObservabilityPoster({
      event: destination({ url: "http://127.0.0.1:1" }),
      metric: destination(),
      clock,
    });
    await expect(poster.postEvent({ eventType: "x", attributes: [] })).rejects.toBeInstanceOf(UpstreamError);
  });

  it("answers FeatureDisabledError when no destination account is configured", async () => {
    const poster = createObservabilityPoster({
      event: destination({ accounts: [] }),
      metric: destination(),
      clock,
    });
    await expect(poster.postEvent({ eventType: "x", attributes: [] })).rejects.toBeInstanceOf(
      FeatureDisabledError,
    );
    expect(server.requests).toEqual([]);
  });
});
