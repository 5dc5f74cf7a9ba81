/**
 * The observability client's log call against a capture server on loopback: one request to the
 * log URL per call, in the log API's `[{common: {attributes}, logs: [{message}]}]` shape, with the
 * configured headers and the account's `Api-Key`; a refusal names the account and its status,
 * never its key; a client made without a log URL refuses and sends nothing.
 */
import { describe, expect, it } from "vitest";
import { createObservabilityClient } from "../../../../core/adapters/http-clients/observability-client.ts";
import type { ObservabilityDestination } from "../../../../core/observability/observability.ts";
import { ObservabilityPostError } from "../../../../core/observability/observability-post-error.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { FeatureDisabledError } from "../../../../core/upstream-error.ts";
import { captureServerForSuite } from "../../../helpers/suite-capture-server.ts";

const server = captureServerForSuite(202);
const account = { accountName: "Ops", insertApiKey: "NRII-log-secret", accountId: "1111" };
const batch = {
  attributes: { logtype: "qs_reloadTaskFailedLog", nested: { hours: 1 } },
  messages: ["one", "two"],
};

function clientWith(log: boolean) {
  const target = (url: string): ObservabilityDestination => ({
    url,
    headers: [{ name: "X-Team", value: "ops" }],
    staticAttributes: [],
    accounts: [],
  });
  return createObservabilityClient({
    event: target(server.url),
    metric: target(server.url),
    ...(log ? { log: target(`${server.url}/log/v1`) } : {}),
    clock: systemClock,
    timeoutMs: 1000,
  });
}

describe("log entries posted to the observability platform's log API", () => {
  it("posts the batches in the log API's shape to the log URL with the headers and the account's key", async () => {
    // Act
    await clientWith(true).postLogs([batch], account);

    // Assess
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/log/v1");
    expect(request?.headers["api-key"]).toBe("NRII-log-secret");
    expect(request?.headers["x-team"]).toBe("ops");
    expect(JSON.parse(request?.body ?? "null")).toEqual([
      { common: { attributes: batch.attributes }, logs: [{ message: "one" }, { message: "two" }] },
    ]);
  });

  it("a refusal names the account and the status, never the key", async () => {
    // Prepare
    server.respondWith(403);

    // Act
    const error = await clientWith(true)
      .postLogs([batch], account)
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(ObservabilityPostError);
    expect((error as ObservabilityPostError).status).toBe(403);
    expect((error as Error).message).toContain("Ops: HTTP 403");
    expect((error as Error).message).not.toContain("NRII");
  });

  it("refuses without a log URL and sends nothing; an empty call sends nothing either", async () => {
    await expect(clientWith(false).postLogs([batch], account)).rejects.toBeInstanceOf(FeatureDisabledError);
    await clientWith(true).postLogs([], account);
    expect(server.requests).toEqual([]);
  });
});
