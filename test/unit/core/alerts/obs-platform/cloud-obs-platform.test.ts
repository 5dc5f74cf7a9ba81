/**
 * A failed or canceled Qlik Cloud reload on the observability platform: switched on by the
 * `reloadTaskFailure` and `reloadTaskAborted` blocks (the site's), posted as the site's event
 * and log entry types with the tenant and the cloud run's attributes, the log entry's message
 * ending with the script log's tail, and rate-limited per tenant and app.
 */
import { describe, expect, it } from "vitest";
import { notAvailable } from "../../../../../core/alerts/index.ts";
import { createObsPlatformDestination } from "../../../../../core/alerts/obs-platform/obs-platform-alert-destination.ts";
import type {
  ObservabilityAccount,
  ObservabilityEvent,
  ObservabilityLogBatch,
} from "../../../../../core/ports.ts";
import { admitted } from "../../../../helpers/admitted-destination.ts";
import { newRelicConfig } from "../../../../helpers/alert-configs.ts";
import { CLOUD_FAILED_ALERT } from "../../../../helpers/cloud-reload-alert-fixture.ts";
import { recordingLogger } from "../../../../helpers/recording-logger.ts";
import { LINKS } from "../../../../helpers/task-alerts.ts";

const ACCOUNTS: ObservabilityAccount[] = [
  { accountName: "Prod", insertApiKey: "secret-key", accountId: "1" },
];

const block = (log: boolean) => ({
  sharedSettings: { rateLimit: 60, attribute: { static: [{ name: "env", value: "prod" }] } },
  destination: {
    event: { enable: true, sendToAccount: { always: { enable: true, account: ["Prod"] } } },
    log: {
      enable: log,
      tailScriptLogLines: 2,
      sendToAccount: { always: { enable: true, account: ["Prod"] } },
    },
  },
});

function destinationFor(settings: Record<string, unknown>) {
  const posted: { what: "event" | "log"; body: ObservabilityEvent | ObservabilityLogBatch }[] = [];
  const client = {
    postEvents: async (events: readonly ObservabilityEvent[]) => {
      posted.push({ what: "event", body: events[0] as ObservabilityEvent });
    },
    postLogs: async (batches: readonly ObservabilityLogBatch[]) => {
      posted.push({ what: "log", body: batches[0] as ObservabilityLogBatch });
    },
  };
  const destination = admitted(
    createObsPlatformDestination(newRelicConfig({ enable: true, ...settings }), {
      clientFor: () => client,
      accounts: ACCOUNTS,
      logger: recordingLogger(),
      view: { links: LINKS, hostName: "sense.example.com", version: "9.9.9" },
    }),
  );
  return { destination, posted };
}

const attributesOf = (event: ObservabilityEvent) =>
  Object.fromEntries(event.attributes.map(({ name, value }) => [name, value]));

describe("Qlik Cloud reloads on the observability platform", () => {
  it("takes the cloud kinds under the site's blocks, and none while a block has no target on", () => {
    const failureOnly = destinationFor({ reloadTaskFailure: block(false) }).destination;
    expect(failureOnly.handles("qlikCloudReloadFailure")).toBe(true);
    expect(failureOnly.handles("qlikCloudReloadAborted")).toBe(false);
    const both = destinationFor({ reloadTaskFailure: block(false), reloadTaskAborted: block(false) });
    expect(both.destination.handles("qlikCloudReloadAborted")).toBe(true);
    expect(destinationFor({}).destination.handles("qlikCloudReloadFailure")).toBe(false);
  });

  it("posts the site's event type with the tenant, the app, the reload and its error", async () => {
    // Prepare
    const { destination, posted } = destinationFor({ reloadTaskFailure: block(true) });

    // Act
    const result = await destination.send(CLOUD_FAILED_ALERT);

    // Assess
    expect(result).toEqual({ outcome: "sent", messages: 2 });
    const event = posted.find((p) => p.what === "event")?.body as ObservabilityEvent;
    expect(event.eventType).toBe("qs_reloadTaskFailedEvent");
    expect(event.timestamp).toBe(Date.parse("2026-12-05T10:00:05Z"));
    expect(attributesOf(event)).toMatchObject({
      env: "prod",
      version: "9.9.9",
      qs_tenant: "eu",
      qs_tenantUrl: "https://eu.example.qlikcloud.com",
      qs_hostName: "eu.example.qlikcloud.com",
      qs_taskName: "Sales (Qlik Cloud, eu)",
      qs_appName: "Sales",
      qs_appId: "app-1",
      qs_spaceName: "Finance",
      qs_user: "Bob Reloader",
      qs_reloadId: "r-1",
      qs_executionId: "r-1",
      qs_status: "FAILED",
      qs_errorCode: "EngineError",
      qs_errorMessage: "Field not found: <Amount>",
      qs_logMessage: "Field not found: <Amount>",
    });
  });

  it("posts the log entry with the tenant and the script log's tail in its message", async () => {
    // Prepare
    const { destination, posted } = destinationFor({ reloadTaskFailure: block(true) });

    // Act
    await destination.send(CLOUD_FAILED_ALERT);

    // Assess
    const log = posted.find((p) => p.what === "log")?.body as ObservabilityLogBatch;
    expect(log.attributes).toMatchObject({
      logtype: "qs_reloadTaskFailedLog",
      qs_tenant: "eu",
      qs_appName: "Sales",
      qs_exeuctionStatusText: "FAILED",
      qs_scriptLogSize: 40,
      qs_scriptLogTailCount: 2,
      qs_executionDuration: { hours: 0, minutes: 0, seconds: 0 },
    });
    const message = log.messages[0] ?? "";
    expect(message).toContain("Qlik Cloud reload failed: Sales (app-1) in tenant eu");
    expect(message).toContain("Error message: Field not found: <Amount>");
    expect(message.endsWith("middle\nField not found: <Amount>")).toBe(true);
    expect(message).not.toContain("first line");
  });

  it("says the script log is not available when the tenant did not give it, and sends a canceled run as aborted", async () => {
    // Prepare
    const { destination, posted } = destinationFor({ reloadTaskAborted: block(true) });
    const canceled = {
      ...CLOUD_FAILED_ALERT,
      kind: "qlikCloudReloadAborted" as const,
      run: { ...CLOUD_FAILED_ALERT.run, status: "CANCELED", durationSeconds: 3725 },
      scriptLog: notAvailable("HTTP 404"),
    };

    // Act
    await destination.send(canceled);

    // Assess
    const event = posted.find((p) => p.what === "event")?.body as ObservabilityEvent;
    expect(event.eventType).toBe("qs_reloadTaskAbortedEvent");
    const log = posted.find((p) => p.what === "log")?.body as ObservabilityLogBatch;
    expect(log.attributes).toMatchObject({
      logtype: "qs_reloadTaskAbortedLog",
      qs_executionDuration: { hours: 1, minutes: 2, seconds: 5 },
      qs_scriptLogSize: 0,
    });
    expect(log.messages[0]).toMatch(/Script log not available for this Qlik Cloud reload\.$/);
  });

  it("rate-limits per tenant and app: another app of the tenant is still posted", async () => {
    // Prepare
    const { destination, posted } = destinationFor({ reloadTaskFailure: block(false) });
    const otherApp = {
      ...CLOUD_FAILED_ALERT,
      run: { ...CLOUD_FAILED_ALERT.run, appId: "app-2", reloadId: "r-3" },
    };

    // Act
    await destination.send(CLOUD_FAILED_ALERT);
    const again = await destination.send({
      ...CLOUD_FAILED_ALERT,
      run: { ...CLOUD_FAILED_ALERT.run, reloadId: "r-2" },
    });
    await destination.send(otherApp);

    // Assess
    expect(again).toMatchObject({ outcome: "suppressed" });
    expect(posted.map((p) => attributesOf(p.body as ObservabilityEvent).qs_reloadId)).toEqual(["r-1", "r-3"]);
  });
});
