/**
 * The Qlik Cloud reload alerts through the channels: switched on by each channel's
 * `reloadTaskFailure` and `reloadTaskAborted` blocks (the site's), sent with the tenant, app,
 * space, owner, who reloaded and the script log in the built-in messages and the webhook
 * payload, rate-limited per tenant and app, and sent with what is known when a lookup failed.
 */
import { describe, expect, it } from "vitest";
import {
  type AlertChannelDeps,
  buildAlertDestinations,
  type CloudReloadAlert,
  createAlertDispatcher,
  notAvailable,
  type OutgoingEmail,
  type WebhookCall,
} from "../../../../core/alerts/index.ts";
import { parseConfig } from "../../../../core/config/index.ts";
import { CLOUD_FAILED_ALERT } from "../../../helpers/cloud-reload-alert-fixture.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

const FAILED = CLOUD_FAILED_ALERT;

const ON = {
  emailNotification: {
    enable: true,
    smtp: { host: "smtp.example.com" },
    reloadTaskFailure: { enable: true, fromAddress: "steward@example.com", recipients: ["ops@example.com"] },
  },
  teamsNotification: {
    enable: true,
    reloadTaskFailure: { enable: true, webhookURL: "https://t.example.com/w" },
  },
  slackNotification: {
    enable: true,
    reloadTaskFailure: { enable: true, webhookURL: "https://s.example.com/w" },
  },
  webhookNotification: {
    enable: true,
    reloadTaskFailure: { webhooks: [{ webhookURL: "https://h.example.com/fail", httpMethod: "POST" }] },
  },
  platform: { host: "sense.example.com" },
  cert: { clientCert: "client.pem", clientCertKey: "client_key.pem", clientCertCA: "root.pem" },
};

function config(service: Record<string, unknown>) {
  const parsed = parseConfig({ Service: service });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

function setUp(service: Record<string, unknown> = ON) {
  const emails: OutgoingEmail[] = [];
  const posts: { url: string; body: unknown }[] = [];
  const calls: WebhookCall[] = [];
  const deps: AlertChannelDeps = {
    logger: recordingLogger(),
    clients: {
      email: { send: async (email: OutgoingEmail) => void emails.push(email), close() {} },
      chat: { post: async (url: string, body: unknown) => void posts.push({ url, body }) },
      webhook: { call: async (call: WebhookCall) => void calls.push(call) },
    },
    readTemplate: async () => "",
    view: {
      links: { qlikSenseUrls: { qmc: "", hub: "", appBaseUrl: "" }, genericUrls: [] },
      hostName: "",
      version: "test",
    },
  };
  const destinations = buildAlertDestinations(config(service), deps);
  const clock = createManualClock(0);
  const metrics = createMemoryMetricsRegistry();
  const dispatcher = createAlertDispatcher({ destinations, clock, logger: deps.logger, metrics });
  return { emails, posts, calls, destinations, dispatcher, clock, metrics };
}

describe("the Qlik Cloud reload alerts", () => {
  it("are taken by the destinations whose reloadTaskFailure or reloadTaskAborted block is on", () => {
    const { destinations } = setUp();
    const taking = (kind: string) => destinations.filter((d) => d.handles(kind as never)).map((d) => d.name);
    expect(taking("qlikCloudReloadFailure")).toEqual(["email", "teams", "slack", "webhook"]);
    expect(taking("qlikCloudReloadAborted")).toEqual([]);
    expect(setUp({}).destinations.filter((d) => d.handles("qlikCloudReloadFailure"))).toEqual([]);
  });

  it("send the tenant, app, space, owner, who reloaded and the log, once per app within the rate limit", async () => {
    const { emails, posts, calls, dispatcher, clock, metrics } = setUp();
    expect(await dispatcher.dispatch(FAILED)).toEqual({
      email: "sent",
      teams: "sent",
      slack: "sent",
      webhook: "sent",
    });
    expect(emails).toHaveLength(1);
    const [email] = emails;
    expect(email?.to).toBe("ops@example.com");
    expect(email?.subject).toBe('Qlik Sense reload failed: "Sales (Qlik Cloud, eu)"');
    for (const text of ["eu", "Sales", "Finance", "Ada Owner", "Bob Reloader", "EngineError", "middle"])
      expect(email?.text).toContain(text);
    expect(email?.html).toContain('href="https://eu.example.qlikcloud.com/sense/app/app-1"');
    const teams = JSON.stringify(posts.find((post) => post.url === "https://t.example.com/w")?.body);
    for (const text of ["Tenant", "Finance", "Bob Reloader", "Open app", "/sense/app/app-1"])
      expect(teams).toContain(text);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.payload).toMatchObject({
      event: "Qlik Cloud reload failed",
      tenantName: "eu",
      appName: "Sales",
      appId: "app-1",
      spaceName: "Finance",
      user: "Bob Reloader",
      reloadId: "r-1",
      errorCode: "EngineError",
      logMessage: "Field not found: <Amount>",
    });

    clock.advance(60_000);
    const again = await dispatcher.dispatch({ ...FAILED, run: { ...FAILED.run, reloadId: "r-2" } });
    expect(Object.values(again)).toEqual(["suppressed", "suppressed", "suppressed", "suppressed"]);
    const other = await dispatcher.dispatch({
      ...FAILED,
      tenant: { name: "us", url: "https://us.example.com" },
    });
    expect(Object.values(other)).toEqual(["sent", "sent", "sent", "sent"]);
    const samples = metrics.scrape().find((m) => m.name === "steward_alerts_total")?.samples;
    expect(samples).toContainEqual({
      labels: { destination: "email", kind: "qlikCloudReloadFailure", outcome: "sent" },
      value: 2,
    });
  });

  it("go out with what is known when the lookups failed, saying what is missing", async () => {
    const { emails, calls, dispatcher } = setUp();
    const bare: CloudReloadAlert = {
      ...FAILED,
      app: notAvailable("the tenant answered 403"),
      space: notAvailable("the tenant answered 403"),
      owner: notAvailable("the tenant answered 403"),
      reloadedBy: notAvailable("the tenant answered 403"),
      scriptLog: notAvailable("the tenant answered 404"),
    };
    expect(Object.values(await dispatcher.dispatch(bare))).toEqual(["sent", "sent", "sent", "sent"]);
    expect(emails[0]?.subject).toBe('Qlik Sense reload failed: "app-1 (Qlik Cloud, eu)"');
    expect(emails[0]?.text).toContain("scriptLog: the tenant answered 404");
    expect(calls[0]?.payload).toMatchObject({ appName: "not available", appId: "app-1", tenantName: "eu" });
  });
});
