/**
 * A watched Windows service's change of state through every channel: taken by the destinations
 * whose `serviceStopped` / `serviceStarted` block (webhooks: `serviceMonitor`, the observability
 * platform: its `monitorServiceState`) is on, each message byte for byte (recorded under
 * test/fixtures/alert-recordings/service-alerts/), one per service and block within the rate
 * limit, the destination's budget, and each outcome counted under the block's name.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type AlertChannelDeps,
  alertBudgetLimits,
  buildAlertDestinations,
  createAlertBudget,
  createAlertDispatcher,
  type OutgoingEmail,
  type ServiceStateAlert,
  type WebhookCall,
} from "../../../../core/alerts/index.ts";
import { parseConfig } from "../../../../core/config/index.ts";
import type {
  ObservabilityAccount,
  ObservabilityEvent,
  ObservabilityLogBatch,
} from "../../../../core/ports.ts";
import { createManualClock } from "../../../helpers/manual-clock.ts";
import { createMemoryMetricsRegistry } from "../../../helpers/memory-metrics-registry.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { STOPPED } from "../../../helpers/service-state-alerts.ts";

const RECORDINGS = join(
  import.meta.dirname,
  "..",
  "..",
  "..",
  "fixtures",
  "alert-recordings",
  "service-alerts",
);

const STARTED: ServiceStateAlert = {
  ...STOPPED,
  kind: "serviceStarted",
  change: "started",
  previous: "STOPPED",
  state: "RUNNING",
  at: "2026-12-06T07:05:00.000Z",
};

const block = (extra: Record<string, unknown>) => ({ enable: true, ...extra });

const ON = {
  emailNotification: {
    enable: true,
    smtp: { host: "smtp.example.com" },
    serviceStopped: block({ fromAddress: "steward@example.com", recipients: ["ops@example.com"] }),
    serviceStarted: block({ fromAddress: "steward@example.com", recipients: ["ops@example.com"] }),
  },
  teamsNotification: {
    enable: true,
    serviceStopped: block({ webhookURL: "https://t.example.com/stopped" }),
    serviceStarted: block({ webhookURL: "https://t.example.com/started" }),
  },
  slackNotification: {
    enable: true,
    serviceStopped: block({ webhookURL: "https://s.example.com/stopped" }),
    serviceStarted: block({ webhookURL: "https://s.example.com/started" }),
  },
  webhookNotification: {
    enable: true,
    serviceMonitor: block({ webhooks: [{ webhookURL: "https://h.example.com/service" }] }),
  },
  incidentTool: {
    newRelic: {
      enable: true,
      serviceMonitor: {
        destination: {
          event: { enable: true, sendToAccount: ["ops"] },
          log: { enable: true, sendToAccount: ["ops"] },
        },
        monitorServiceState: { running: { enable: false } },
      },
    },
  },
  thirdPartyToolsCredentials: { obsPlatform: [{ accountName: "ops", insertApiKey: "k-1", accountId: "42" }] },
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
  const observed: {
    account: string;
    events?: readonly ObservabilityEvent[];
    logs?: readonly ObservabilityLogBatch[];
  }[] = [];
  const observability = {
    postEvents: async (events: readonly ObservabilityEvent[], account: ObservabilityAccount) =>
      void observed.push({ account: account.accountName, events }),
    postLogs: async (logs: readonly ObservabilityLogBatch[], account: ObservabilityAccount) =>
      void observed.push({ account: account.accountName, logs }),
  };
  const deps: AlertChannelDeps = {
    logger: recordingLogger(),
    clients: {
      email: { send: async (email: OutgoingEmail) => void emails.push(email), close() {} },
      chat: { post: async (url: string, body: unknown) => void posts.push({ url, body }) },
      webhook: { call: async (call: WebhookCall) => void calls.push(call) },
      observability: () => observability,
    },
    readTemplate: async () => "",
    view: {
      links: {
        qlikSenseUrls: { qmc: "https://sense1.example.com/qmc", hub: "", appBaseUrl: "" },
        genericUrls: [],
      },
      hostName: "",
      version: "test",
    },
  };
  const destinations = buildAlertDestinations(config(service), deps);
  const clock = createManualClock(0);
  const metrics = createMemoryMetricsRegistry();
  const parsed = config(service);
  const budget = createAlertBudget({ limits: alertBudgetLimits(parsed), clock, logger: deps.logger });
  const dispatcher = createAlertDispatcher({ destinations, clock, logger: deps.logger, metrics, budget });
  return { emails, posts, calls, observed, destinations, dispatcher, clock, metrics };
}

describe("a Windows service's alerts: which destinations take them", () => {
  it("each channel whose block is on, none by default", () => {
    const { destinations } = setUp();
    const taking = (kind: string) => destinations.filter((d) => d.handles(kind as never)).map((d) => d.name);

    expect(taking("serviceStopped")).toEqual(["email", "teams", "slack", "webhook", "obs-platform"]);
    expect(taking("serviceStarted")).toEqual(["email", "teams", "slack", "webhook"]);
    expect(setUp({}).destinations).toEqual([]);
    const blocksOff = setUp({
      ...ON,
      emailNotification: { enable: true, smtp: { host: "smtp.example.com" } },
      webhookNotification: {
        enable: true,
        serviceMonitor: { webhooks: [{ webhookURL: "https://h.example.com/x" }] },
      },
    });
    expect(blocksOff.destinations.filter((d) => d.handles("serviceStopped")).map((d) => d.name)).toEqual([
      "teams",
      "slack",
      "obs-platform",
    ]);
  });
});

describe("a Windows service's alerts: what each channel sends", () => {
  it("a stopped service, byte for byte", async () => {
    const { emails, posts, calls, observed, dispatcher } = setUp();

    const answers = await dispatcher.dispatch(STOPPED);

    expect(answers).toEqual({
      email: "sent",
      teams: "sent",
      slack: "sent",
      webhook: "sent",
      "obs-platform": "sent",
    });
    expect(emails).toHaveLength(1);
    expect(emails[0]?.subject).toBe(
      'Windows service stopped on host sense1.example.com: "Qlik Sense Repository Service"',
    );
    expect(emails[0]?.text).toBe(
      [
        "Windows service Repository stopped on sense1.example.com (was RUNNING)",
        "",
        "Host:           sense1.example.com",
        "Service:        Repository",
        "Service name:   QlikSenseRepositoryService",
        "Display name:   Qlik Sense Repository Service",
        "Previous state: RUNNING",
        "New state:      STOPPED",
        "Start type:     Automatic",
        'Executable:     "C:\\Program Files\\Qlik\\Sense\\Repository\\Repository.exe"',
        "Read at:        2026-12-06T07:00:30.000Z",
        "",
        "QMC: https://sense1.example.com/qmc",
        "",
      ].join("\n"),
    );
    await expect(String(emails[0]?.html)).toMatchFileSnapshot(join(RECORDINGS, "stopped.email.html"));
    const chat = posts.map(({ url, body }) => ({ url, body }));
    await expect(`${JSON.stringify(chat, null, 2)}\n`).toMatchFileSnapshot(
      join(RECORDINGS, "stopped.chat.json"),
    );
    expect(calls.map(({ url, method, payload }) => ({ url, method, payload }))).toEqual([
      {
        url: "https://h.example.com/service",
        method: "POST",
        payload: {
          event: "Windows service stopped",
          message: "Windows service Repository stopped on sense1.example.com (was RUNNING)",
          host: "sense1.example.com",
          serviceName: "QlikSenseRepositoryService",
          serviceDisplayName: "Qlik Sense Repository Service",
          serviceFriendlyName: "Repository",
          serviceStatus: "STOPPED",
          servicePrevStatus: "RUNNING",
          serviceStartType: "Automatic",
          serviceExePath: '"C:\\Program Files\\Qlik\\Sense\\Repository\\Repository.exe"',
          alertTime: "2026-12-06T07:00:30.000Z",
        },
      },
    ]);
    await expect(`${JSON.stringify(observed, null, 2)}\n`).toMatchFileSnapshot(
      join(RECORDINGS, "stopped.obs-platform.json"),
    );
  });

  it("a started service and a paused one, under their blocks, with their own sentences", async () => {
    const { emails, posts, calls, dispatcher } = setUp();

    await dispatcher.dispatch(STARTED);
    await dispatcher.dispatch({ ...STOPPED, change: "changed", state: "PAUSED", host: "sense2.example.com" });

    expect(emails.map((email) => email.subject)).toEqual([
      'Windows service started on host sense1.example.com: "Qlik Sense Repository Service"',
      'Windows service stopped on host sense2.example.com: "Qlik Sense Repository Service"',
    ]);
    expect(emails.map((email) => email.text.split("\n")[0])).toEqual([
      "Windows service Repository started on sense1.example.com (was STOPPED)",
      "Windows service Repository is PAUSED on sense2.example.com (was RUNNING)",
    ]);
    expect(posts.map((post) => post.url)).toEqual([
      "https://t.example.com/started",
      "https://s.example.com/started",
      "https://t.example.com/stopped",
      "https://s.example.com/stopped",
    ]);
    expect(calls.map((call) => (call.payload as { event: string }).event)).toEqual([
      "Windows service started",
      "Windows service state changed",
    ]);
  });
});

describe("a Windows service's alerts: rate limits and counts", () => {
  it("one per service and block within the rate limit, another service or block still alerted, each counted", async () => {
    const { dispatcher, clock, metrics, emails } = setUp();

    const first = await dispatcher.dispatch(STOPPED);
    clock.advance(10_000);
    const again = await dispatcher.dispatch(STOPPED);
    const started = await dispatcher.dispatch(STARTED);
    const other = await dispatcher.dispatch({ ...STOPPED, service: "QlikSenseSchedulerService" });
    clock.advance(25_000);
    const after = await dispatcher.dispatch(STOPPED);

    expect(Object.values(first)).toEqual(["sent", "sent", "sent", "sent", "sent"]);
    expect(again).toEqual({
      email: "suppressed",
      teams: "suppressed",
      slack: "suppressed",
      webhook: "suppressed",
      "obs-platform": "suppressed",
    });
    expect(Object.values(started)).toEqual(["sent", "sent", "sent", "sent"]);
    expect(Object.values(other)).toEqual(["sent", "sent", "sent", "sent", "sent"]);
    // 35 s after the first: past the 30 s of the blocks, within the webhooks' 300 s.
    expect(after).toEqual({
      email: "sent",
      teams: "sent",
      slack: "sent",
      webhook: "suppressed",
      "obs-platform": "sent",
    });
    expect(emails).toHaveLength(4);
    const samples = metrics.scrape().find((m) => m.name === "steward_alerts_total")?.samples;
    expect(samples).toContainEqual({
      labels: { destination: "email", kind: "serviceStopped", outcome: "sent" },
      value: 3,
    });
    expect(samples).toContainEqual({
      labels: { destination: "webhook", kind: "serviceStopped", outcome: "suppressed" },
      value: 2,
    });
  });

  it("are left out over the destination's budget of alerts per minute", async () => {
    const { dispatcher } = setUp({
      ...ON,
      teamsNotification: { ...ON.teamsNotification, maxAlertsPerMinute: 1 },
    });

    await dispatcher.dispatch(STOPPED);
    const second = await dispatcher.dispatch({ ...STOPPED, service: "QlikSenseSchedulerService" });

    expect(second.teams).toBe("over_budget");
    expect(second.slack).toBe("sent");
  });
});
