/**
 * The one builder of observability clients against a capture server on loopback: each kind of
 * target posts to the URL and with the headers of its own config section (the REST API's with
 * the static attributes, the agent's metric and event batches without, a reload-task alert kind
 * with that kind's headers to the alert URLs), and the REST API's client gives a platform that does
 * not answer up after 5 s while a background client still waits then.
 */
import { describe, expect, it } from "vitest";
import { observabilityClientFor } from "../../../../core/adapters/observability-client-for.ts";
import { type Config, parseConfig } from "../../../../core/config/index.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { UpstreamError } from "../../../../core/upstream-error.ts";
import { captureServerForSuite } from "../../../helpers/suite-capture-server.ts";

const server = captureServerForSuite(202);
const account = { accountName: "Ops", insertApiKey: "NRII-secret", accountId: "1111" };

function configAt(url: string): Config {
  const header = (value: string) => [{ name: "X-Section", value }];
  const parsed = parseConfig({
    Service: {
      obsPlatform: {
        enable: true,
        event: {
          url: `${url}/event-api`,
          header: header("event"),
          attribute: { static: [{ name: "env", value: "prod" }] },
        },
        metric: { url: `${url}/metric/v1`, header: header("metric") },
      },
      incidentTool: {
        newRelic: {
          enable: true,
          url: { event: `${url}/alert-api`, log: `${url}/log/v1` },
          reloadTaskFailure: { sharedSettings: { header: header("failure") } },
          reloadTaskAborted: { sharedSettings: { header: header("aborted") } },
        },
      },
    },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

const event = { eventType: "QS_Test", attributes: [], timestamp: 1 };
const sent = () => server.requests.map((request) => [request.path, request.headers["x-section"]]);

describe("observabilityClientFor", () => {
  it("gives the REST API's client both sections, their static attributes and the accounts it picks", async () => {
    // Prepare
    const { obsPlatform } = configAt(server.url);
    const client = observabilityClientFor(
      { kind: "rest-api", obsPlatform, eventAccounts: [account], metricAccounts: [account] },
      { clock: systemClock },
    );

    // Act
    await client.postEvent(event);
    await client.postMetric({ name: "m", type: "gauge", value: 1, attributes: [], timestamp: 1 });

    // Assert
    expect(sent()).toEqual([
      ["/event-api/v1/accounts/1111/events", "event"],
      ["/metric/v1", "metric"],
    ]);
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ env: "prod", eventType: "QS_Test" });
  });

  it("gives the agent's metric batches the metric section and its event batches the event section, without static attributes", async () => {
    // Prepare
    const { obsPlatform } = configAt(server.url);
    const metrics = observabilityClientFor(
      { kind: "metrics", obsPlatform, accounts: [account] },
      { clock: systemClock },
    );
    const events = observabilityClientFor(
      { kind: "events", obsPlatform, accounts: [account] },
      { clock: systemClock },
    );

    // Act
    await metrics.postMetrics(
      [{ timestamp: 1, intervalMs: 0, attributes: {}, metrics: [{ name: "m", value: 1 }] }],
      account,
    );
    await events.postEvents([event], account);

    // Assert
    expect(sent()).toEqual([
      ["/metric/v1", "metric"],
      ["/event-api/v1/accounts/1111/events", "event"],
    ]);
    expect(JSON.parse(server.requests[1]!.body)).toEqual([{ eventType: "QS_Test", timestamp: 1 }]);
  });

  it("gives each reload-task alert kind the alert URLs and that kind's headers", async () => {
    // Prepare
    const { newRelic } = configAt(server.url).incidentTool;
    const failure = observabilityClientFor(
      { kind: "alert", newRelic, alert: "reloadTaskFailure" },
      { clock: systemClock },
    );
    const aborted = observabilityClientFor(
      { kind: "alert", newRelic, alert: "reloadTaskAborted" },
      { clock: systemClock },
    );

    // Act
    await failure.postEvents([event], account);
    await aborted.postLogs([{ attributes: {}, messages: ["line"] }], account);

    // Assert
    expect(sent()).toEqual([
      ["/alert-api/v1/accounts/1111/events", "failure"],
      ["/log/v1", "aborted"],
    ]);
  });

  it("gives a platform that does not answer up after 5 s for the REST API, and waits longer for the agent's batches", async () => {
    // Prepare
    server.respondWith("no answer");
    const { obsPlatform } = configAt(server.url);
    const rest = observabilityClientFor(
      { kind: "rest-api", obsPlatform, eventAccounts: [account], metricAccounts: [account] },
      { clock: systemClock },
    );
    const events = observabilityClientFor(
      { kind: "events", obsPlatform, accounts: [account] },
      { clock: systemClock },
    );
    let backgroundSettled = false;
    const background = events.postEvents([event], account).finally(() => {
      backgroundSettled = true;
    });
    background.catch(() => {});

    // Act
    const started = Date.now();
    const answered = await rest.postEvent(event).catch((error: unknown) => error);
    const waitedMs = Date.now() - started;

    // Assert
    expect(answered).toBeInstanceOf(UpstreamError);
    expect(waitedMs).toBeGreaterThanOrEqual(4900);
    expect(waitedMs).toBeLessThan(9000);
    expect(backgroundSettled).toBe(false);
  }, 15_000);
});
