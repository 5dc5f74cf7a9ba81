/**
 * The server licence's alert through the real clients to servers of ours on loopback: the SMTP
 * client to a real SMTP server (parsed as a mail server would), the chat webhook client to a capture
 * server standing in for Teams and Slack, and the webhook client to the same capture server with GET
 * (query parameters) and POST (a JSON body with Butler's value types). One webhook that fails
 * never stops the next, and a formatted template that cannot be read still lets the basic card out.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createChatWebhookClient } from "../../../../core/adapters/http-clients/chat-webhook-client.ts";
import { createWebhookClient } from "../../../../core/adapters/http-clients/webhook-client.ts";
import { createSmtpClient } from "../../../../core/adapters/smtp/smtp-client.ts";
import {
  buildAlertDestinations,
  createAlertDispatcher,
  type EmailClient,
  LICENCE_EXPIRY_KIND,
  LICENCE_STATUS_KIND,
  type LicenceExpiryAlert,
  totalsKey,
} from "../../../../core/alerts/index.ts";
import { parseConfig } from "../../../../core/config/index.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { expiringLicence } from "../../../helpers/licence-alerts.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { type SmtpCapture, startSmtpCapture } from "../../../helpers/smtp-capture.ts";
import { captureServerForSuite } from "../../../helpers/suite-capture-server.ts";

const server = captureServerForSuite(200);
let smtp: SmtpCapture;
const built: EmailClient[] = [];

beforeAll(async () => {
  smtp = await startSmtpCapture();
});
afterAll(async () => {
  await smtp.stop();
});
afterEach(() => {
  smtp.received.length = 0;
  for (const client of built.splice(0)) client.close();
});

const ALERT: LicenceExpiryAlert = expiringLicence();

function destinations(teams: Record<string, unknown> = {}) {
  const parsed = parseConfig({
    Service: {
      platform: { host: "sense.example.com" },
      cert: { clientCert: "client.pem", clientCertKey: "client_key.pem", clientCertCA: "root.pem" },
      qlikSenseUrls: { qmc: "https://sense.example.com/qmc" },
      emailNotification: {
        enable: true,
        smtp: { host: "127.0.0.1", port: smtp.port, timeoutSeconds: 5 },
        serverLicenseExpiry: {
          enable: true,
          fromAddress: "Qlik Sense <noreply@example.com>",
          recipients: ["ops@example.com", "licences@example.com"],
        },
      },
      teamsNotification: {
        enable: true,
        serverLicenseExpiry: { enable: true, webhookURL: `${server.url}/teams`, ...teams },
      },
      slackNotification: {
        enable: true,
        serverLicenseExpiry: { enable: true, webhookURL: `${server.url}/slack` },
      },
      webhookNotification: {
        enable: true,
        timeoutSeconds: 5,
        qlikSenseServerLicenseMonitor: {
          webhooks: [{ description: "status", webhookURL: `${server.url}/status`, httpMethod: "GET" }],
        },
        qlikSenseServerLicenseExpiryAlert: {
          webhooks: [
            { description: "refusing", webhookURL: `${server.url}/refusing`, httpMethod: "POST" },
            { description: "tickets", webhookURL: `${server.url}/alert`, httpMethod: "POST" },
          ],
        },
      },
      licenseMonitor: {
        enable: true,
        serverLicense: {
          webhook: { enable: true, sendRecurring: { enable: true }, sendAlert: { enable: true } },
        },
      },
    },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const logger = recordingLogger();
  const email = createSmtpClient(parsed.config.emailNotification.smtp);
  built.push(email);
  const destinations = buildAlertDestinations(parsed.config, {
    clients: { email, chat: createChatWebhookClient(), webhook: createWebhookClient() },
    logger,
    readTemplate: async (path) => {
      throw new Error(`ENOENT: ${path}`);
    },
    view: {
      links: { qlikSenseUrls: parsed.config.qlikSenseUrls, genericUrls: parsed.config.genericUrls },
      hostName: parsed.config.platform.host,
      version: "test",
    },
  });
  const dispatcher = createAlertDispatcher({ destinations, clock: systemClock, logger });
  return { dispatcher, logger };
}

const body = (path: string) => JSON.parse(server.requests.find((r) => r.path === path)?.body ?? "null");

describe("the server licence's alert through the real clients", () => {
  it("arrives as one email per recipient, a Teams card, a Slack message and the expiry webhook", async () => {
    // Prepare
    const { dispatcher } = destinations();
    server.respondWith((request) => (request.path === "/refusing" ? 500 : 200));

    // Act
    const outcomes = await dispatcher.dispatch(ALERT);

    // Assess
    expect(outcomes).toEqual({ email: "sent", teams: "sent", slack: "sent", webhook: "failed" });
    expect(smtp.received.flatMap((r) => r.envelopeTo).sort()).toEqual([
      "licences@example.com",
      "ops@example.com",
    ]);
    const mail = smtp.received[0]?.mail;
    expect(mail?.subject).toBe("Qlik Sense server licence expires in 12 days, on 2027-01-31");
    expect(String(mail?.html)).toContain('href="https://sense.example.com/qmc"');
    expect(mail?.text).toMatch(/Days until expiry: 12/);
    expect(body("/teams").attachments[0].content.body[0].text).toBe(
      "Qlik Sense server licence expires in 12 days, on 2027-01-31",
    );
    expect(body("/slack").blocks[0].text.text).toBe(
      "Qlik Sense server licence expires in 12 days, on 2027-01-31",
    );
    // The refusing webhook is reported, and the next one is still called, with Butler's JSON types.
    expect(body("/alert")).toEqual({
      event: "server license about to expire alert",
      licenseExpired: false,
      expiryDateStr: "2027-01-31",
      daysUntilExpiry: 12,
    });
    expect(dispatcher.totals(totalsKey("webhook", LICENCE_EXPIRY_KIND)).lastError?.message).toMatch(
      /refusing/,
    );
  });

  it("calls the status webhook with GET and the licence's state as query parameters", async () => {
    const { dispatcher } = destinations();
    const status = {
      kind: LICENCE_STATUS_KIND,
      expired: false,
      expiryDate: "2027-06-30",
      daysUntilExpiry: 162,
      at: ALERT.at,
    } as const;

    expect(await dispatcher.dispatch(status)).toEqual({ webhook: "sent" });

    const request = server.requests.find((r) => r.path.startsWith("/status"));
    expect(request?.method).toBe("GET");
    expect(Object.fromEntries(new URL(request?.path ?? "", "http://x").searchParams)).toEqual({
      event: "server license status",
      licenseExpired: "false",
      expiryDateStr: "2027-06-30",
      daysUntilExpiry: "162",
    });
  });

  it("posts the basic card when the formatted template cannot be read, and says why", async () => {
    const { dispatcher, logger } = destinations({
      messageType: "formatted",
      templateFile: "/nowhere.json",
    });

    await dispatcher.dispatch(ALERT);

    expect(body("/teams").attachments[0].content.type).toBe("AdaptiveCard");
    expect(logger.at("warn").map((entry) => entry.message)).toContain(
      "teams licence alert: template not used, the basic message is sent instead",
    );
  });
});
