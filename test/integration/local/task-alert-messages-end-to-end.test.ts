import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { recordedRun } from "../../../local/simulated-platform/task-event-sender.ts";
import { startTestPlatform, type TestPlatform } from "../../fixtures/platform/test-platform.ts";
import { type CaptureServer, startCaptureServer } from "../../helpers/capture-server.ts";
import { until } from "../../helpers/eventually.ts";
import { scratchDirectory } from "../../helpers/per-test-environment.ts";
import { parsePrometheusText, sampleValue } from "../../helpers/prometheus-text.ts";
import { sendDatagrams } from "../../helpers/send-datagrams.ts";
import { type SmtpCapture, startSmtpCapture } from "../../helpers/smtp-capture.ts";
import { startStewardIn } from "../../helpers/started-steward.ts";
import {
  freeTaskEventPorts,
  type TaskEventPorts,
  taskEventCount,
  writeTaskEventsConfig,
} from "../../helpers/task-events-steward.ts";

let platform: TestPlatform;
let smtp: SmtpCapture;
let capture: CaptureServer;

beforeAll(async () => {
  [platform, smtp, capture] = await Promise.all([
    startTestPlatform(),
    startSmtpCapture(),
    startCaptureServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([platform?.stop(), smtp?.stop(), capture?.stop()]);
});
beforeEach(() => {
  platform.reset();
  smtp.received.length = 0;
  capture.requests.length = 0;
});

/** Steward sending failed reloads by email, to Teams and to one webhook; `subject` is the email's template. */
async function startMessagingSteward(subject: string): Promise<TaskEventPorts> {
  const dir = scratchDirectory("steward-task-messages-");
  const ports = await freeTaskEventPorts();
  writeTaskEventsConfig(dir, {
    platform,
    ports,
    extra: {
      emailNotification: {
        enable: true,
        smtp: { host: "127.0.0.1", port: smtp.port },
        reloadTaskFailure: {
          enable: true,
          subject,
          fromAddress: "steward@example.com",
          recipients: ["ops@example.com"],
        },
      },
      teamsNotification: {
        enable: true,
        reloadTaskFailure: { enable: true, webhookURL: `${capture.url}/teams` },
      },
      webhookNotification: {
        enable: true,
        reloadTaskFailure: { webhooks: [{ description: "ops", webhookURL: `${capture.url}/hook` }] },
      },
    },
  });
  await startStewardIn(dir);
  return ports;
}

function failedRun(): string {
  return recordedRun(platform.repository.taskEvents, "failed", { stoppedAtMs: Date.now() - 1000 });
}

const paths = () => capture.requests.map((request) => request.path).sort();

describe("reload-task alerts by email, Teams and webhook through `steward start`", () => {
  it("a failed reload: one email, one Teams card and one webhook call within 5 s; the same datagram again sends nothing more", async () => {
    // Prepare
    const ports = await startMessagingSteward('Reload failed: "{{taskName}}"');
    const datagram = failedRun();

    // Act
    const sentAt = Date.now();
    await sendDatagrams(ports.udp, [datagram]);
    await until(async () => smtp.received.length === 1 && capture.requests.length === 2, 5000, 50);
    const within = Date.now() - sentAt;
    await sendDatagrams(ports.udp, [datagram]);
    await until(async () => (await taskEventCount(ports.scrape, "failed", "duplicate")) === 1, 5000, 50);
    await new Promise((resolve) => setTimeout(resolve, 1000));

    // Assess
    expect(within).toBeLessThan(5000);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.envelopeTo).toEqual(["ops@example.com"]);
    expect(smtp.received[0]?.mail.subject).toBe('Reload failed: "Reload Sales"');
    expect(String(smtp.received[0]?.mail.html)).toContain("Reload Sales");
    expect(paths()).toEqual(["/hook", "/teams"]);
    const teams = JSON.parse(capture.requests.find((r) => r.path === "/teams")?.body ?? "{}");
    expect(teams.attachments[0].contentType).toBe("application/vnd.microsoft.card.adaptive");
  });

  it("a subject template with an error: the email still arrives, with the plain subject", async () => {
    // Prepare
    const ports = await startMessagingSteward("{{#each}}");

    // Act
    await sendDatagrams(ports.udp, [failedRun()]);
    await until(async () => smtp.received.length === 1, 5000, 50);

    // Assess
    expect(smtp.received[0]?.mail.subject).toBe('Qlik Sense reload failed: "Reload Sales"');
    expect(smtp.received[0]?.mail.text).toContain("FinishedFail");
  });
});

/** Steward sending failed reloads as observability events (and, with `log`, log entries) to one account on the capture server. */
async function startObsPlatformSteward(options: { log?: boolean } = {}): Promise<TaskEventPorts> {
  const ops = { always: { enable: true, account: ["Ops"] } };
  const dir = scratchDirectory("steward-task-obs-platform-");
  const ports = await freeTaskEventPorts();
  writeTaskEventsConfig(dir, {
    platform,
    ports,
    extra: {
      thirdPartyToolsCredentials: {
        obsPlatform: [{ accountName: "Ops", insertApiKey: "NRII-ops-secret", accountId: 4242 }],
      },
      incidentTool: {
        newRelic: {
          enable: true,
          url: { event: capture.url, log: `${capture.url}/log/v1` },
          reloadTaskFailure: {
            destination: {
              event: { enable: true, sendToAccount: ops },
              ...(options.log === true && { log: { enable: true, sendToAccount: ops } }),
            },
          },
        },
      },
    },
  });
  await startStewardIn(dir);
  return ports;
}

async function obsPlatformAlertsSent(scrapePort: number): Promise<number | undefined> {
  const text = await (await fetch(`http://127.0.0.1:${scrapePort}/metrics`)).text();
  return sampleValue(parsePrometheusText(text), "steward_alerts_total", {
    destination: "obs-platform",
    kind: "reloadTaskFailure",
    outcome: "sent",
  });
}

describe("reload-task alerts to the observability platform through `steward start`", () => {
  it("a failed reload: one event within 5 s, counted and shown on /status; the same datagram again sends nothing more", async () => {
    // Prepare
    const ports = await startObsPlatformSteward();
    const datagram = failedRun();

    // Act
    const sentAt = Date.now();
    await sendDatagrams(ports.udp, [datagram]);
    await until(async () => capture.requests.length === 1, 5000, 50);
    const within = Date.now() - sentAt;
    await sendDatagrams(ports.udp, [datagram]);
    await until(async () => (await taskEventCount(ports.scrape, "failed", "duplicate")) === 1, 5000, 50);
    await new Promise((resolve) => setTimeout(resolve, 1000));

    // Assess
    expect(within).toBeLessThan(5000);
    expect(capture.requests).toHaveLength(1);
    const request = capture.requests[0];
    expect(request?.path).toBe("/v1/accounts/4242/events");
    expect(request?.headers["api-key"]).toBe("NRII-ops-secret");
    const events = JSON.parse(request?.body ?? "[]");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ eventType: "qs_reloadTaskFailedEvent", qs_taskName: "Reload Sales" });
    expect(await obsPlatformAlertsSent(ports.scrape)).toBe(1);
    const status = (await (await fetch(`http://127.0.0.1:${ports.ui}/status`)).json()) as {
      alertDestinations: Record<string, unknown>;
    };
    expect(status.alertDestinations["obs-platform"]).toMatchObject({ sent: 1, failed: 0 });
  });

  it("with log entries on: one event and one log entry carrying the script log's tail", async () => {
    // Prepare
    const ports = await startObsPlatformSteward({ log: true });

    // Act
    await sendDatagrams(ports.udp, [failedRun()]);
    await until(async () => capture.requests.length === 2, 5000, 50);

    // Assess
    const paths = capture.requests.map((request) => request.path).sort();
    expect(paths).toEqual(["/log/v1", "/v1/accounts/4242/events"]);
    const log = capture.requests.find((request) => request.path === "/log/v1");
    expect(log?.headers["api-key"]).toBe("NRII-ops-secret");
    const [entry] = JSON.parse(log?.body ?? "[]");
    expect(entry.common.attributes).toMatchObject({
      logtype: "qs_reloadTaskFailedLog",
      qs_taskName: "Reload Sales",
    });
    expect(entry.logs[0].message).toContain("Error: Cannot open file");
  });
});
