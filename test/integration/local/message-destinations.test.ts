/**
 * The destinations the local process builds from the configuration: only the enabled ones, each
 * handling only its switched-on kinds, and one failed reload reaching a real SMTP server and the
 * Teams, Slack and webhook capture servers through the process's own clients.
 */
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { qlikSenseUrlsSchema } from "../../../core/config/schema/qlik-sense-urls.ts";
import { messageDestinations } from "../../../local/agent/message-destinations.ts";
import { emailConfig, slackConfig, teamsConfig, webhookConfig } from "../../helpers/alert-configs.ts";
import { slackMessageProblems, teamsMessageProblems } from "../../helpers/chat-payload-checks.ts";
import { recordingLogger } from "../../helpers/recording-logger.ts";
import { startSmtpCapture } from "../../helpers/smtp-capture.ts";
import { captureServerForSuite } from "../../helpers/suite-capture-server.ts";
import { failedReloadAlert } from "../../helpers/task-alerts.ts";

const server = captureServerForSuite(200);

const urls = v.parse(qlikSenseUrlsSchema, {
  qmc: "https://sense.example.com/qmc",
  hub: "https://sense.example.com/hub",
});

describe("message destinations of the local process", () => {
  it("builds none while every section is off", () => {
    const config = {
      emailNotification: emailConfig({}),
      teamsNotification: teamsConfig({}),
      slackNotification: slackConfig({}),
      webhookNotification: webhookConfig({}),
      qlikSenseUrls: urls,
      genericUrls: [],
    };
    expect(messageDestinations(config, { logger: recordingLogger() })).toEqual([]);
  });

  it("sends one failed reload by email, to Teams, to Slack and to a webhook", async () => {
    const smtp = await startSmtpCapture();
    try {
      const config = {
        emailNotification: emailConfig({
          enable: true,
          smtp: { host: "127.0.0.1", port: smtp.port },
          reloadTaskFailure: {
            enable: true,
            fromAddress: "noreply@example.com",
            recipients: ["ops@example.com"],
          },
        }),
        teamsNotification: teamsConfig({
          enable: true,
          reloadTaskFailure: { enable: true, webhookURL: `${server.url}/teams` },
        }),
        slackNotification: slackConfig({
          enable: true,
          reloadTaskFailure: { enable: true, webhookURL: `${server.url}/slack` },
        }),
        webhookNotification: webhookConfig({
          enable: true,
          reloadTaskFailure: { webhooks: [{ webhookURL: `${server.url}/hook` }] },
        }),
        qlikSenseUrls: urls,
        genericUrls: [],
      };
      const destinations = messageDestinations(config, { logger: recordingLogger() });
      expect(destinations.map((d) => d.name)).toEqual(["email", "teams", "slack", "webhook"]);
      expect(destinations.map((d) => d.handles("reloadTaskAborted"))).toEqual([false, false, false, false]);
      const results = await Promise.all(destinations.map((d) => d.send(failedReloadAlert())));
      expect(results.map((r) => r.outcome)).toEqual(["sent", "sent", "sent", "sent"]);
      expect(smtp.received[0]?.envelopeTo).toEqual(["ops@example.com"]);
      const byPath = Object.fromEntries(server.requests.map((r) => [r.path, JSON.parse(r.body)]));
      expect(teamsMessageProblems(byPath["/teams"])).toEqual([]);
      expect(slackMessageProblems(byPath["/slack"])).toEqual([]);
      expect(byPath["/hook"].event).toBe("Qlik Sense reload failed");
    } finally {
      await smtp.stop();
    }
  });
});
