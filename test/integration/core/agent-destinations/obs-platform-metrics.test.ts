/**
 * The agent's observability metric destination (health and session gauges) against a capture
 * server on loopback: gauge batches go out as one JSON array per account to the metric URL with
 * that account's Api-Key, an outage is retried, refused batches are counted and not re-posted.
 */

import { describe, expect, it } from "vitest";
import { createObservabilityClient } from "../../../../core/adapters/http-clients/observability-client.ts";
import { createEventDestinations } from "../../../../core/agent-destinations/create-event-destinations.ts";
import type { ObservabilityDestination } from "../../../../core/observability/observability.ts";
import type { ObservabilityAccount, ObservabilityMetricBatch } from "../../../../core/ports.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { until } from "../../../helpers/eventually.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { captureServerForSuite } from "../../../helpers/suite-capture-server.ts";

const server = captureServerForSuite(202);
const accounts: ObservabilityAccount[] = [
  { accountName: "prod", insertApiKey: "key-prod", accountId: "1111" },
  { accountName: "test", insertApiKey: "key-test", accountId: "2222" },
];

function destinationsFor(selected: readonly ObservabilityAccount[]) {
  const destination: ObservabilityDestination = {
    url: `${server.url}/metric/v1`,
    headers: [{ name: "X-Team", value: "ops" }],
    staticAttributes: [],
    accounts: [],
  };
  const client = createObservabilityClient({ event: destination, metric: destination, clock: systemClock });
  return createEventDestinations({
    maxBatchSize: 1000,
    obsMetrics: { client, accounts: selected },
    maxAgeMs: 20,
    initialRetryDelayMs: 50,
    clock: systemClock,
    logger: recordingLogger(),
  });
}

const batch = (server: string, value: number): ObservabilityMetricBatch => ({
  timestamp: 1_700_000_000_000,
  intervalMs: 5000,
  attributes: { server_name: server, env: "prod" },
  metrics: [
    { name: "qs_cpuTotal", value },
    { name: "qs_engineSaturated", value: 0 },
  ],
});

describe("agent metrics to the observability platform", () => {
  it("posts the batches of a poll as one array per account to the metric URL with its Api-Key", async () => {
    const destinations = destinationsFor(accounts);

    await destinations.writeMetrics([batch("a", 12), batch("b", 34)]);
    await destinations.stop();

    const byKey = [...server.requests].sort((a, b) =>
      String(a.headers["api-key"]).localeCompare(String(b.headers["api-key"])),
    );
    expect(byKey.map((request) => [request.method, request.path, request.headers["api-key"]])).toEqual([
      ["POST", "/metric/v1", "key-prod"],
      ["POST", "/metric/v1", "key-test"],
    ]);
    for (const request of byKey) {
      expect(request.headers["x-team"]).toBe("ops");
      expect(JSON.parse(request.body)).toEqual(
        ["a", "b"].map((name, i) => ({
          common: {
            timestamp: 1_700_000_000_000,
            "interval.ms": 5000,
            attributes: { server_name: name, env: "prod" },
          },
          metrics: [
            { name: "qs_cpuTotal", type: "gauge", value: i === 0 ? 12 : 34 },
            { name: "qs_engineSaturated", type: "gauge", value: 0 },
          ],
        })),
      );
    }
    expect(destinations.stats()["obs-platform-metrics:prod"]).toMatchObject({ written: 2, buffered: 0 });
  });

  it("retries an outage and counts a refusal without posting it again", async () => {
    let failures = 2;
    server.respondWith((request) => {
      if (request.headers["api-key"] === "key-prod" && failures > 0) {
        failures -= 1;
        return 503;
      }
      return request.headers["api-key"] === "key-test" ? 400 : 202;
    });
    const destinations = destinationsFor(accounts);

    await destinations.writeMetrics([batch("a", 1)]);
    await until(() => destinations.stats()["obs-platform-metrics:prod"]?.written === 1);
    await destinations.stop();

    const prod = server.requests.filter((request) => request.headers["api-key"] === "key-prod");
    const test = server.requests.filter((request) => request.headers["api-key"] === "key-test");
    expect(prod).toHaveLength(3);
    expect(test).toHaveLength(1);
    expect(destinations.stats()["obs-platform-metrics:test"]).toMatchObject({ rejected: 1, written: 0 });
  });
});
