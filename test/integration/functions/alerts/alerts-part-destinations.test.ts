/**
 * The destinations the local process's alerts part builds from the configuration: only the
 * enabled ones, each handling only its switched-on kinds, and one failed reload reaching a real
 * SMTP server and the Teams, Slack and webhook capture servers through the process's own clients.
 */
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../../core/config/index.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { startAlerts } from "../../../../functions/alerts/alerts-part.ts";
import { slackMessageProblems, teamsMessageProblems } from "../../../helpers/chat-payload-checks.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { startSmtpCapture } from "../../../helpers/smtp-capture.ts";
import { captureServerForSuite } from "../../../helpers/suite-capture-server.ts";
import { failedReloadAlert } from "../../../helpers/task-alerts.ts";

const server = captureServerForSuite(200);

function config(sections: Record<string, unknown>) {
  const parsed = parseConfig({
    Service: {
      platform: { host: "sense.example.com" },
      cert: { clientCert: "client.pem", clientCertKey: "client_key.pem", clientCertCA: "root.pem" },
      qlikSenseUrls: { qmc: "https://sense.example.com/qmc", hub: "https://sense.example.com/hub" },
      taskEvents: { enable: true },
      ...sections,
    },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

describe("alert destinations of the local process", () => {
  it("builds none while every section is off", async () => {
    const alerts = await startAlerts({ config: config({}), logger: recordingLogger(), clock: systemClock });
    expect(alerts.dispatcher.destinations).toEqual([]);
    await alerts.stop();
  });

  it("sends one failed reload by email, to Teams, to Slack and to a webhook", async () => {
    const smtp = await startSmtpCapture();
    const alerts = await startAlerts({
      config: config({
        emailNotification: {
          enable: true,
          smtp: { host: "127.0.0.1", port: smtp.port },
          reloadTaskFailure: {
            enable: true,
            fromAddress: "noreply@example.com",
            recipients: ["ops@example.com"],
          },
        },
        teamsNotification: {
          enable: true,
          reloadTaskFailure: { enable: true, webhookURL: `${server.url}/teams` },
        },
        slackNotification: {
          enable: true,
          reloadTaskFailure: { enable: true, webhookURL: `${server.url}/slack` },
        },
        webhookNotification: {
          enable: true,
          reloadTaskFailure: { webhooks: [{ webhookURL: `${server.url}/hook` }] },
        },
      }),
      logger: recordingLogger(),
      clock: systemClock,
    });
    try {
      const { destinations } = alerts.dispatcher;
      expect(destinations.map((d) => d.name)).toEqual(["email", "teams", "slack", "webhook"]);
      expect(destinations.map((d) => d.handles("reloadTaskAborted"))).toEqual([false, false, false, false]);
      const results = await alerts.dispatcher.dispatch(failedReloadAlert());
      expect(results).toEqual({ email: "sent", teams: "sent", slack: "sent", webhook: "sent" });
      expect(smtp.received[0]?.envelopeTo).toEqual(["ops@example.com"]);
      const byPath = Object.fromEntries(server.requests.map((r) => [r.path, JSON.parse(r.body)]));
      expect(teamsMessageProblems(byPath["/teams"])).toEqual([]);
      expect(slackMessageProblems(byPath["/slack"])).toEqual([]);
      expect(byPath["/hook"].event).toBe("Qlik Sense reload failed");
    } finally {
      await alerts.stop();
      await smtp.stop();
    }
  });
});
