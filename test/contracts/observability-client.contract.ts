/**
 * The ObservabilityClient contract: every adapter runs this one suite (see
 * observability-client.test.ts) against a loopback capture server standing in for the platform's
 * ingest APIs. What an adapter promises depends on its kind:
 * - "posts": every event and metric goes once to each destination account, with that account's
 *   `Api-Key`, the configured headers and a JSON body in the platform's format; the answer carries
 *   the platform's status; a non-2xx answer, an unreachable endpoint or no answer within
 *   `timeoutMs` for any account gives UpstreamError (502) naming the accounts that failed and
 *   never an API key.
 * - "disabled" (no destination account configured): every post is refused with
 *   FeatureDisabledError (503) and nothing is sent.
 */

import { describe, expect, it } from "vitest";
import type { ObservabilityDestination } from "../../core/observability/observability.ts";
import type {
  Clock,
  ObservabilityClient,
  ObservabilityEvent,
  ObservabilityMetric,
} from "../../core/ports.ts";
import { FeatureDisabledError, UpstreamError } from "../../core/upstream-error.ts";
import type { CapturedRequest, CaptureServer } from "../helpers/capture-server.ts";
import { freePort } from "../helpers/free-port.ts";
import { createManualClock } from "../helpers/manual-clock.ts";
import { captureServerForSuite } from "../helpers/suite-capture-server.ts";
import { timed } from "../helpers/timed.ts";

export interface ObservabilityClientTarget {
  event: ObservabilityDestination;
  metric: ObservabilityDestination;
  clock: Clock;
  /** Time limit of one request. */
  timeoutMs: number;
}

export interface ObservabilityClientFactory {
  kind: "posts" | "disabled";
  create(target: ObservabilityClientTarget): ObservabilityClient;
}

const TIMEOUT_MS = 300;
const AT_ONCE_MS = 500;
const SLACK_MS = 1500;
const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

const accounts = [
  { accountName: "prod", insertApiKey: "key-prod-secret", accountId: 1111 },
  { accountName: "test", insertApiKey: "key-test-secret", accountId: "2222" },
];

const event: ObservabilityEvent = {
  eventType: "reload_failed",
  timestamp: 1_642_164_296_053,
  attributes: [
    { name: "env", value: "override" },
    { name: "host.name", value: "srv1 ✓" },
  ],
};

const metric: ObservabilityMetric = {
  name: "memory.heap",
  type: "gauge",
  value: 2.3,
  timestamp: 1_642_164_296_053,
  interval: 60_000,
  attributes: [{ name: "unit", value: "GB" }],
};

const byPath = (requests: readonly CapturedRequest[]) =>
  [...requests].sort((a, b) => a.path.localeCompare(b.path));

/** Overrides of the event and metric destinations of one client. */
interface ClientOverrides {
  event?: Partial<ObservabilityDestination>;
  metric?: Partial<ObservabilityDestination>;
}

/** A client of the adapter under test, both destinations at the suite's capture server. */
type SuiteClient = (overrides?: ClientOverrides) => ObservabilityClient;

function suiteClient(factory: ObservabilityClientFactory, server: CaptureServer): SuiteClient {
  function destination(overrides: Partial<ObservabilityDestination> = {}): ObservabilityDestination {
    return {
      url: server.url,
      headers: [{ name: "X-Team", value: "ops" }],
      staticAttributes: [
        { name: "env", value: "prod" },
        { name: "site", value: "hq" },
      ],
      accounts,
      ...overrides,
    };
  }
  return (overrides = {}) =>
    factory.create({
      event: destination(overrides.event),
      metric: destination({ url: `${server.url}/metric/v1`, ...overrides.metric }),
      clock: createManualClock(NOW),
      timeoutMs: TIMEOUT_MS,
    });
}

export function describeObservabilityClientContract(name: string, factory: ObservabilityClientFactory): void {
  describe(`ObservabilityClient contract: ${name}`, () => {
    const server = captureServerForSuite(202);
    const client = suiteClient(factory, server);

    if (factory.kind === "disabled") {
      it("refuses events and metrics with FeatureDisabledError and sends nothing", async () => {
        const disabled = client();

        const posted = await timed(disabled.postEvent(event));
        const measured = await timed(disabled.postMetric(metric));

        expect(posted.error).toBeInstanceOf(FeatureDisabledError);
        expect(measured.error).toBeInstanceOf(FeatureDisabledError);
        expect(server.requests).toEqual([]);
      });
      return;
    }
    itPostsEvents(client, server);
    itPostsMetrics(client, server);
    itAnswers(client, server);
  });
}

/** An event: once per account, to that account's events path, as one flat object. */
function itPostsEvents(client: SuiteClient, server: CaptureServer): void {
  it("posts an event once per account to {url}/v1/accounts/{accountId}/events with that account's Api-Key", async () => {
    await client().postEvent(event);

    const requests = byPath(server.requests);
    expect(requests.map((request) => [request.method, request.path, request.headers["api-key"]])).toEqual([
      ["POST", "/v1/accounts/1111/events", "key-prod-secret"],
      ["POST", "/v1/accounts/2222/events", "key-test-secret"],
    ]);
    for (const request of requests) {
      expect(request.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(request.headers["x-team"]).toBe("ops");
    }
  });

  it("sends an event as one flat object: static attributes, the event's attributes over them, eventType, timestamp", async () => {
    await client().postEvent(event);

    for (const request of server.requests) {
      expect(JSON.parse(request.body)).toEqual({
        env: "override",
        site: "hq",
        "host.name": "srv1 ✓",
        eventType: "reload_failed",
        timestamp: 1_642_164_296_053,
      });
    }
    expect(server.requests).toHaveLength(2);
  });

  it("keeps the event URL's base path and drops its trailing slashes", async () => {
    await client({ event: { url: `${server.url}/ingest//`, accounts: [accounts[0]!] } }).postEvent(event);

    expect(server.requests.map((request) => request.path)).toEqual(["/ingest/v1/accounts/1111/events"]);
  });
}

/** A metric: once per account, to the metric URL, in the platform's [{common, metrics}] shape. */
function itPostsMetrics(client: SuiteClient, server: CaptureServer): void {
  it("posts a metric once per account to the metric URL as given, in the [{common, metrics}] shape", async () => {
    await client({ metric: { url: `${server.url}/metric/v1?region=eu` } }).postMetric(metric);

    const requests = byPath(server.requests);
    expect(
      requests.map((request) => [request.method, request.path, request.headers["api-key"]]).sort(),
    ).toEqual([
      ["POST", "/metric/v1?region=eu", "key-prod-secret"],
      ["POST", "/metric/v1?region=eu", "key-test-secret"],
    ]);
    for (const request of requests) {
      expect(request.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(request.headers["x-team"]).toBe("ops");
      expect(JSON.parse(request.body)).toEqual([
        {
          common: {
            timestamp: 1_642_164_296_053,
            "interval.ms": 60_000,
            attributes: { env: "prod", site: "hq", unit: "GB" },
          },
          metrics: [{ name: "memory.heap", type: "gauge", value: 2.3 }],
        },
      ]);
    }
  });

  it("omits interval.ms from a metric without an interval, or with 0", async () => {
    const { interval: _, ...withoutInterval } = metric;
    const single = client({ metric: { accounts: [accounts[0]!] } });

    await single.postMetric(withoutInterval);
    await single.postMetric({ ...metric, interval: 0 });

    const commons = server.requests.map((request) => JSON.parse(request.body)[0].common);
    expect(commons).toEqual([
      { timestamp: 1_642_164_296_053, attributes: { env: "prod", site: "hq", unit: "GB" } },
      { timestamp: 1_642_164_296_053, attributes: { env: "prod", site: "hq", unit: "GB" } },
    ]);
  });

  it("stamps an event or metric without a timestamp, or with 0, with the clock's now", async () => {
    const single = client({ event: { accounts: [accounts[0]!] }, metric: { accounts: [accounts[0]!] } });
    const { timestamp: _e, ...eventNow } = event;
    const { timestamp: _m, ...metricNow } = metric;

    await single.postEvent(eventNow);
    await single.postEvent({ ...event, timestamp: 0 });
    await single.postMetric(metricNow);

    const bodies = server.requests.map((request) => JSON.parse(request.body));
    expect(bodies.map((body) => body.timestamp ?? body[0].common.timestamp)).toEqual([NOW, NOW, NOW]);
  });

  it("sends the account's Api-Key even when a configured header has that name", async () => {
    const headers = [{ name: "api-key", value: "configured" }];

    await client({ event: { headers }, metric: { headers } }).postEvent(event);
    await client({ event: { headers }, metric: { headers } }).postMetric(metric);

    expect(server.requests.map((request) => request.headers["api-key"]).sort()).toEqual([
      "key-prod-secret",
      "key-prod-secret",
      "key-test-secret",
      "key-test-secret",
    ]);
  });
}

/** What a post answers: the platform's status, or UpstreamError naming the accounts that failed. */
function itAnswers(client: SuiteClient, server: CaptureServer): void {
  it("answers with the platform's status code and status text", async () => {
    server.respondWith(200);

    const answer = await client().postMetric(metric);

    expect(answer).toEqual({ observabilityResultCode: "200", observabilityResultText: "OK" });
  });

  it("answers 202 Accepted when the platform accepts", async () => {
    expect(await client().postEvent(event)).toEqual({
      observabilityResultCode: "202",
      observabilityResultText: "Accepted",
    });
  });

  it("answers UpstreamError naming each account refused and its status, after posting to every account", async () => {
    server.respondWith((request) => (request.path.includes("1111") ? 403 : 202));

    const { error } = await timed(client().postEvent(event));

    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as Error).message).toBe("Posting the event failed for prod: HTTP 403");
    expect(server.requests).toHaveLength(2);
  });

  it("answers UpstreamError naming every account when all are refused, never with an API key", async () => {
    server.respondWith(500);

    const { error } = await timed(client().postMetric(metric));

    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as Error).message).toBe("Posting the metric failed for prod: HTTP 500, test: HTTP 500");
    expect((error as Error).message).not.toContain("secret");
  });

  it("answers UpstreamError at once when nothing listens at the platform's URL", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;

    const { error, elapsedMs } = await timed(client({ event: { url } }).postEvent(event));

    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as Error).message).toBe(
      "Posting the event failed for prod: no response, test: no response",
    );
    expect(elapsedMs).toBeLessThan(AT_ONCE_MS);
  });

  it("answers UpstreamError after timeoutMs when the platform does not answer", async () => {
    server.respondWith("no answer");

    const { error, elapsedMs } = await timed(client().postMetric(metric));

    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as Error).message).not.toContain("secret");
    expect(elapsedMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
    expect(elapsedMs).toBeLessThan(TIMEOUT_MS + SLACK_MS);
  });
}
