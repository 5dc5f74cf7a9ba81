/**
 * The agent's observability destination against a capture server on loopback: events go out as
 * JSON arrays to each account's event URL with that account's Api-Key; an outage is retried
 * without posting twice to an account that already accepted, and refused events are not re-posted.
 */

import { describe, expect, it } from "vitest";
import { createObservabilityClient } from "../../../../core/adapters/http-clients/observability-client.ts";
import { createEventDestinations } from "../../../../core/agent-destinations/create-event-destinations.ts";
import type { ObservabilityDestination } from "../../../../core/observability/observability.ts";
import type { ObservabilityAccount } from "../../../../core/ports.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { captureServerForSuite } from "../../../helpers/suite-capture-server.ts";

const server = captureServerForSuite(202);
const accounts: ObservabilityAccount[] = [
  { accountName: "prod", insertApiKey: "key-prod", accountId: "1111" },
  { accountName: "test", insertApiKey: "key-test", accountId: "2222" },
];

function destinationsFor(selected: readonly ObservabilityAccount[]) {
  const destination: ObservabilityDestination = {
    url: `${server.url}/`,
    headers: [{ name: "X-Team", value: "ops" }],
    staticAttributes: [{ name: "env", value: "prod" }],
    accounts: [],
  };
  const client = createObservabilityClient({ event: destination, metric: destination, clock: systemClock });
  return createEventDestinations({
    maxBatchSize: 1000,
    observability: { client, accounts: selected },
    maxAgeMs: 20,
    initialRetryDelayMs: 50,
    clock: systemClock,
    logger: recordingLogger(),
  });
}

const userEvent = (n: number) => ({
  eventType: "qs_userEvent",
  timestamp: 1_700_000_000_000 + n,
  attributes: [{ name: "qs_userId", value: `u${n}` }],
});

describe("agent events to the observability platform", () => {
  it("posts a JSON array per account to its event URL with its Api-Key", async () => {
    const destinations = destinationsFor(accounts);

    await destinations.writeEvents([userEvent(1), userEvent(2)]);
    await destinations.stop();

    const byPath = [...server.requests].sort((a, b) => a.path.localeCompare(b.path));
    expect(byPath.map((request) => [request.method, request.path, request.headers["api-key"]])).toEqual([
      ["POST", "/v1/accounts/1111/events", "key-prod"],
      ["POST", "/v1/accounts/2222/events", "key-test"],
    ]);
    for (const request of byPath) {
      expect(request.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(request.headers["x-team"]).toBe("ops");
      expect(JSON.parse(request.body)).toEqual([
        { env: "prod", qs_userId: "u1", eventType: "qs_userEvent", timestamp: 1_700_000_000_001 },
        { env: "prod", qs_userId: "u2", eventType: "qs_userEvent", timestamp: 1_700_000_000_002 },
      ]);
    }
  });

  it("retries an account's outage without posting again to the account that accepted", async () => {
    let testFailures = 2;
    server.respondWith((request) => {
      if (request.path.includes("/2222/") && testFailures > 0) {
        testFailures -= 1;
        return 503;
      }
      return 202;
    });
    const destinations = destinationsFor(accounts);

    await destinations.writeEvents([userEvent(1)]);
    await destinations.stop();

    const paths = server.requests.map((request) => request.path).sort();
    expect(paths).toEqual([
      "/v1/accounts/1111/events",
      "/v1/accounts/2222/events",
      "/v1/accounts/2222/events",
      "/v1/accounts/2222/events",
    ]);
    expect(destinations.stats()["obs-platform:test"]).toMatchObject({ written: 1, failedWrites: 2 });
    expect(destinations.stats()["obs-platform:prod"]).toMatchObject({ written: 1, failedWrites: 0 });
  });

  it("counts events the platform refuses as rejected and never posts them again", async () => {
    server.respondWith(400);
    const destinations = destinationsFor([accounts[0]!]);

    await destinations.writeEvents([userEvent(1), userEvent(2)]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await destinations.stop();

    expect(server.requests).toHaveLength(1);
    expect(destinations.stats()["obs-platform:prod"]).toMatchObject({
      written: 0,
      rejected: 2,
      failedWrites: 1,
    });
  });
});
