/**
 * Which channels' destinations the configuration switches on for the server licence, and how the
 * dispatcher counts what they did: off by default, each by its section's master switch and its own block
 * (webhooks by Butler's switches), one alert a day by default, a failure counted and shown
 * without stopping the others, and one `steward_alerts_total` shared with the task alerts.
 */
import { describe, expect, it } from "vitest";
import {
  type AlertChannelDeps,
  buildAlertDestinations,
  createAlertDispatcher,
  LICENCE_EXPIRY_KIND,
  LICENCE_STATUS_KIND,
  type LicenceExpiryAlert,
  type OutgoingEmail,
  totalsKey,
  type WebhookCall,
} from "../../../../core/alerts/index.ts";
import { type Config, parseConfig } from "../../../../core/config/index.ts";
import { expiringLicence } from "../../../helpers/licence-alerts.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

const ALERT: LicenceExpiryAlert = expiringLicence();

const ALL_ON = {
  emailNotification: {
    enable: true,
    smtp: { host: "smtp.example.com" },
    serverLicenseExpiry: {
      enable: true,
      fromAddress: "steward@example.com",
      recipients: ["ops@example.com"],
    },
  },
  teamsNotification: {
    enable: true,
    serverLicenseExpiry: { enable: true, webhookURL: "https://t.example.com/w" },
  },
  slackNotification: {
    enable: true,
    serverLicenseExpiry: { enable: true, webhookURL: "https://s.example.com/w" },
  },
  webhookNotification: {
    enable: true,
    qlikSenseServerLicenseMonitor: { webhooks: [{ webhookURL: "https://h.example.com/status" }] },
    qlikSenseServerLicenseExpiryAlert: {
      webhooks: [
        { webhookURL: "https://h.example.com/broken" },
        { webhookURL: "https://h.example.com/alert" },
      ],
    },
  },
  platform: { host: "sense.example.com" },
  cert: { clientCert: "client.pem", clientCertKey: "client_key.pem", clientCertCA: "root.pem" },
  licenseMonitor: {
    enable: true,
    serverLicense: {
      webhook: { enable: true, sendRecurring: { enable: true }, sendAlert: { enable: true } },
    },
  },
};

function config(service: Record<string, unknown>) {
  const parsed = parseConfig({ Service: service });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

function clients() {
  const emails: OutgoingEmail[] = [];
  const posts: string[] = [];
  const calls: WebhookCall[] = [];
  const deps: AlertChannelDeps = {
    logger: recordingLogger(),
    clients: {
      email: { send: async (email: OutgoingEmail) => void emails.push(email), close() {} },
      chat: { post: async (url: string) => void posts.push(url) },
      webhook: {
        async call(call: WebhookCall) {
          calls.push(call);
          if (call.url.endsWith("/broken")) throw new Error("answered 500");
        },
      },
    },
    readTemplate: async () => "",
    view: {
      links: { qlikSenseUrls: { qmc: "", hub: "", appBaseUrl: "" }, genericUrls: [] },
      hostName: "",
      version: "test",
    },
  };
  return { emails, posts, calls, clients: deps };
}

/** The destinations the channels build, and the names of those that take the expiry alert and the status. */
function buildLicenceDestinations(config: Config, deps: AlertChannelDeps) {
  const destinations = buildAlertDestinations(config, deps);
  const taking = (kind: string) =>
    destinations.filter((destination) => destination.handles(kind as never)).map((each) => each.name);
  return { destinations, alerts: taking(LICENCE_EXPIRY_KIND), statuses: taking(LICENCE_STATUS_KIND) };
}

describe("the server licence's destinations", () => {
  it("are all off by default, and off while a section's master switch is off", () => {
    expect(buildLicenceDestinations(config({}), clients().clients)).toMatchObject({
      alerts: [],
      statuses: [],
    });
    const mastersOff = {
      ...ALL_ON,
      emailNotification: { ...ALL_ON.emailNotification, enable: false },
      teamsNotification: { ...ALL_ON.teamsNotification, enable: false },
      slackNotification: { ...ALL_ON.slackNotification, enable: false },
      webhookNotification: { ...ALL_ON.webhookNotification, enable: false },
    };
    expect(buildLicenceDestinations(config(mastersOff), clients().clients)).toMatchObject({
      alerts: [],
      statuses: [],
    });
  });

  it("are checked only when on, and then refused with the key that is missing", () => {
    const off = parseConfig({
      Service: { teamsNotification: { enable: false, serverLicenseExpiry: { enable: true } } },
    });
    expect(off.ok).toBe(true);
    const on = parseConfig({
      Service: {
        emailNotification: {
          enable: true,
          smtp: { host: "smtp.example.com" },
          serverLicenseExpiry: { enable: true },
        },
        teamsNotification: { enable: true, serverLicenseExpiry: { enable: true } },
      },
    });
    expect(on.ok).toBe(false);
    if (!on.ok)
      expect(on.problems.map((problem) => problem.path).sort()).toEqual([
        "Service.emailNotification.serverLicenseExpiry.fromAddress",
        "Service.teamsNotification.serverLicenseExpiry.webhookURL",
      ]);
  });

  it("call the licence webhooks only with Butler's switches on", () => {
    const switchesOff = {
      ...ALL_ON,
      licenseMonitor: { enable: true, serverLicense: { webhook: { enable: true } } },
    };
    const built = buildLicenceDestinations(config(switchesOff), clients().clients);
    expect(built.alerts).toEqual(["email", "teams", "slack"]);
    expect(built.statuses).toEqual([]);
  });

  it("send one alert a day per destination by default, and count each outcome", async () => {
    const clock = createManualClock(0);
    const { clients: c, emails, posts, calls } = clients();
    const { destinations } = buildLicenceDestinations(config(ALL_ON), c);
    const metrics = createMemoryMetricsRegistry();
    const dispatcher = createAlertDispatcher({ destinations, clock, logger: c.logger, metrics });

    const first = await dispatcher.dispatch(ALERT);
    clock.advance(6 * 3600_000);
    const second = await dispatcher.dispatch(ALERT);
    clock.advance(18 * 3600_000);
    const third = await dispatcher.dispatch(ALERT);

    expect(first).toEqual({ email: "sent", teams: "sent", slack: "sent", webhook: "failed" });
    expect(second).toEqual({
      email: "suppressed",
      teams: "suppressed",
      slack: "suppressed",
      webhook: "suppressed",
    });
    expect(third).toEqual({ email: "sent", teams: "sent", slack: "sent", webhook: "failed" });
    expect(emails.map((e) => e.subject)).toEqual([
      "Qlik Sense server licence expires in 12 days, on 2027-01-31",
      "Qlik Sense server licence expires in 12 days, on 2027-01-31",
    ]);
    expect(posts).toEqual([
      "https://t.example.com/w",
      "https://s.example.com/w",
      "https://t.example.com/w",
      "https://s.example.com/w",
    ]);
    // The broken webhook never stops the one after it.
    expect(calls.map((call) => call.url)).toEqual([
      "https://h.example.com/broken",
      "https://h.example.com/alert",
      "https://h.example.com/broken",
      "https://h.example.com/alert",
    ]);
    const webhook = dispatcher.totals(totalsKey("webhook", LICENCE_EXPIRY_KIND));
    expect(webhook).toMatchObject({ failed: 2, suppressed: 1, sent: 0 });
    expect(webhook.lastError?.message).toContain("1 of 2 webhooks failed");
    const samples = metrics.scrape().find((m) => m.name === "steward_alerts_total")?.samples;
    expect(samples).toContainEqual({
      labels: { destination: "email", kind: "serverLicenseExpiry", outcome: "sent" },
      value: 2,
    });
    expect(samples).toContainEqual({
      labels: { destination: "webhook", kind: "serverLicenseExpiry", outcome: "failed" },
      value: 2,
    });
  });

  it("count into one steward_alerts_total however many dispatchers count into it", () => {
    const metrics = createMemoryMetricsRegistry();
    const logger = recordingLogger();
    const clock = createManualClock(0);
    createAlertDispatcher({ destinations: [], clock, logger, metrics });
    expect(() => createAlertDispatcher({ destinations: [], clock, logger, metrics })).not.toThrow();
    expect(metrics.scrape().filter((m) => m.name === "steward_alerts_total")).toHaveLength(1);
  });
});
