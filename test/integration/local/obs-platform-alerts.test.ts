/**
 * The observability-platform destination of the local process posting to a loopback capture
 * server through the process's own client, checked as the platform's event and log APIs check
 * what they receive: the event API's path per account, the `Api-Key` header, a JSON array of
 * flat events (event type of letters, digits, `_` and `:`, scalar attribute values of at most
 * 4096 characters); the log API's `[{common: {attributes}, logs: [{message}]}]`.
 */
import { describe, expect, it } from "vitest";
import { buildAlertDestinations, OBS_PLATFORM_ALERT_DESTINATION } from "../../../core/alerts/index.ts";
import { parseConfig } from "../../../core/config/index.ts";
import { systemClock } from "../../../core/system-clock.ts";
import { openAlertClients } from "../../../functions/alerts/alert-clients.ts";
import { admitted } from "../../helpers/admitted-destination.ts";
import { recordingLogger } from "../../helpers/recording-logger.ts";
import { captureServerForSuite } from "../../helpers/suite-capture-server.ts";
import { failedAlert } from "../../helpers/task-alert-fixture.ts";

const server = captureServerForSuite(202);

const ACCOUNTS = [
  { accountName: "Prod", insertApiKey: "NRII-prod-secret", accountId: 1111 },
  { accountName: "Audit", insertApiKey: "NRII-audit-secret", accountId: 2222 },
];

function destination(log: boolean) {
  const sendTo = { always: { enable: true, account: ["Prod", "Audit"] } };
  const result = parseConfig({
    Service: {
      thirdPartyToolsCredentials: { obsPlatform: ACCOUNTS },
      incidentTool: {
        newRelic: {
          enable: true,
          url: { event: `${server.url}/`, log: `${server.url}/log/v1` },
          reloadTaskFailure: {
            destination: {
              event: { enable: true, sendToAccount: sendTo },
              log: { enable: log, sendToAccount: sendTo },
            },
            sharedSettings: {
              header: [{ name: "X-Team", value: "bi-platform" }],
              attribute: { static: [{ name: "environment", value: "prod" }] },
            },
          },
        },
      },
    },
  });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  const logger = recordingLogger();
  const config = result.config;
  const built = buildAlertDestinations(config, {
    clients: openAlertClients({ config, logger, clock: systemClock }),
    readTemplate: async () => "",
    logger,
    view: {
      links: { qlikSenseUrls: config.qlikSenseUrls, genericUrls: config.genericUrls },
      hostName: config.platform.host,
      version: "test",
    },
  }).find((each) => each.name === OBS_PLATFORM_ALERT_DESTINATION);
  if (built === undefined) throw new Error("the destination was not built");
  return { destination: admitted(built), logger };
}

/** What the event API would refuse in one request body. */
function eventApiProblems(body: unknown): string[] {
  if (!Array.isArray(body)) return ["the body is not a JSON array"];
  return body.flatMap((event: Record<string, unknown>) => [
    ...(/^[A-Za-z0-9_:]+$/.test(String(event.eventType)) ? [] : [`bad eventType ${event.eventType}`]),
    ...Object.entries(event).flatMap(([name, value]) =>
      (typeof value === "string" && value.length <= 4096) || typeof value === "number"
        ? []
        : [`attribute ${name} is not a scalar of at most 4096 characters`],
    ),
  ]);
}

describe("reload alerts posted to the observability platform's APIs", () => {
  it("posts one event per account to its events path with its insert key and the configured header", async () => {
    // Act
    const result = await destination(false).destination.send(failedAlert());

    // Assess
    expect(result).toEqual({ outcome: "sent", messages: 2 });
    const byPath = new Map(server.requests.map((r) => [r.path, r]));
    expect([...byPath.keys()].sort()).toEqual(["/v1/accounts/1111/events", "/v1/accounts/2222/events"]);
    const prod = byPath.get("/v1/accounts/1111/events");
    expect(prod?.method).toBe("POST");
    expect(prod?.headers["api-key"]).toBe("NRII-prod-secret");
    expect(byPath.get("/v1/accounts/2222/events")?.headers["api-key"]).toBe("NRII-audit-secret");
    expect(prod?.headers["x-team"]).toBe("bi-platform");
    expect(prod?.headers["content-type"]).toMatch(/^application\/json/);
    const body = JSON.parse(prod?.body ?? "null");
    expect(eventApiProblems(body)).toEqual([]);
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({
      eventType: "qs_reloadTaskFailedEvent",
      environment: "prod",
      qs_taskName: "Reload Sales",
      qs_executionId: "32342464-c525-45c4-b755-1a2b55d4e7f1",
      qs_taskTag_nightly: "true",
    });
  });

  it("posts the log entry to the log API with the script log's tail", async () => {
    // Act
    await destination(true).destination.send(failedAlert());

    // Assess
    const logs = server.requests.filter((r) => r.path === "/log/v1");
    expect(logs.map((r) => r.headers["api-key"]).sort()).toEqual(["NRII-audit-secret", "NRII-prod-secret"]);
    const body = JSON.parse(logs[0]?.body ?? "null");
    expect(body).toEqual([
      {
        common: {
          attributes: expect.objectContaining({ logtype: "qs_reloadTaskFailedLog", environment: "prod" }),
        },
        logs: [
          {
            message: expect.stringMatching(
              /-------------------------------\r\n\r\nline 1\r\nline 2\r\nline 3\r\nError: boom$/,
            ),
          },
        ],
      },
    ]);
  });

  it("a refusing account fails the send by its name, the other account still receives, and no key is logged", async () => {
    // Prepare
    server.respondWith((request) => (request.path.includes("2222") ? 403 : 202));
    const { destination: refused, logger } = destination(false);

    // Act
    const sent = refused.send(failedAlert());

    // Assess
    await expect(sent).rejects.toThrow(/event to Audit: .*HTTP 403/);
    await expect(sent).rejects.not.toThrow(/NRII/);
    expect(server.requests.map((r) => r.path).sort()).toEqual([
      "/v1/accounts/1111/events",
      "/v1/accounts/2222/events",
    ]);
    expect(JSON.stringify(logger.entries)).not.toContain("NRII");
  });
});
