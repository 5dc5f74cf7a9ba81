/**
 * Slack alerts through the HTTP poster to a capture server of ours, checked as an incoming
 * webhook would check them: Block Kit within Slack's limits, channel, name and icon honoured,
 * line ends as line ends in formatted messages, the basic message when a template fails, the rate
 * limit per task and the time limit.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createChatWebhookClient } from "../../../../core/adapters/http-clients/chat-webhook-client.ts";
import { createChatDestination } from "../../../../core/alerts/chat/chat-destination.ts";
import { SLACK } from "../../../../core/alerts/chat/slack.ts";
import { admitted } from "../../../helpers/admitted-destination.ts";
import { slackConfig } from "../../../helpers/alert-configs.ts";
import { slackMessageProblems } from "../../../helpers/chat-payload-checks.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { captureServerForSuite } from "../../../helpers/suite-capture-server.ts";
import { available, failedReloadAlert, LINKS, scriptLog } from "../../../helpers/task-alerts.ts";

const server = captureServerForSuite(200);
const directory = mkdtempSync(join(tmpdir(), "steward-slack-templates-"));
const template = (name: string, text: string) => {
  writeFileSync(join(directory, name), text);
  return join(directory, name);
};

function slack(aborted: Record<string, unknown> = {}, timeoutSeconds = 5) {
  const config = slackConfig({
    enable: true,
    timeoutSeconds,
    reloadTaskAborted: { enable: true, webhookURL: `${server.url}/services/T0/B0/token-123`, ...aborted },
  });
  const logger = recordingLogger();
  const { rateLimit, ...destination } = admitted(
    createChatDestination(config, SLACK, {
      client: createChatWebhookClient(),
      readTemplate: (path) => readFile(path, "utf8"),
      logger,
      view: { links: LINKS, hostName: "sense.example.com", timeZone: "UTC", version: "test" },
    }),
  );
  return { destination, logger, rateLimit };
}

const abortedAlert = (overrides: Parameters<typeof failedReloadAlert>[0] = {}) =>
  failedReloadAlert({ kind: "reloadTaskAborted", ...overrides });
// biome-ignore lint/suspicious/noExplicitAny: the posted JSON is walked by the test.
const posted = (): any => JSON.parse(server.requests[0]?.body ?? "null");

describe("Slack alert: the basic message", () => {
  it("posts Block Kit with a header, fields, the log tail and buttons, as the configured poster", async () => {
    const { destination } = slack();
    expect(await destination.send(abortedAlert())).toEqual({ outcome: "sent", messages: 1 });
    expect(server.requests[0]?.method).toBe("POST");
    expect(server.requests[0]?.headers["content-type"]).toMatch(/^application\/json/);
    const body = posted();
    expect(slackMessageProblems(body)).toEqual([]);
    expect(body).toMatchObject({
      channel: "sense-task-aborted",
      username: "Qlik Sense",
      icon_emoji: ":ghost:",
    });
    expect(body.blocks[0]).toEqual({
      type: "header",
      text: { type: "plain_text", text: 'Qlik Sense reload aborted: "Reload Sales dashboard"' },
    });
    const fields = (body.blocks[1].fields as { text: string }[]).map((field) => field.text);
    expect(
      fields.some((text) => text.includes("Started (UTC)") && text.includes("2026-06-20 12:00:01")),
    ).toBe(true);
    const log = body.blocks[2].text.text as string;
    expect(log).toContain("```");
    expect(log).toContain("Execution Failed\n20260620T140003.910+0200 Execution finished.");
    expect(body.blocks.at(-1).elements.map((b: { text: { text: string } }) => b.text.text)).toEqual([
      "Open QMC",
      "Open Hub",
      "Open app",
    ]);
  });

  it("keeps a long task name and a long log within Slack's limits", async () => {
    const { destination } = slack({ tailScriptLogLines: 1000 });
    const long = Array.from({ length: 1000 }, (_, i) => `line ${i} <${"y".repeat(60)}>`);
    await destination.send(
      abortedAlert({ taskName: "T".repeat(400), scriptLog: available(scriptLog(long)) }),
    );
    expect(slackMessageProblems(posted())).toEqual([]);
    expect(JSON.stringify(posted())).toContain("characters of the script log left out");
  });
});

describe("Slack alert: formatted templates and failures", () => {
  it("renders the template to Block Kit with line ends as line ends, poster settings added", async () => {
    const file = template(
      "aborted.handlebars",
      '{"blocks":[{"type":"section","text":{"type":"mrkdwn","text":"*{{taskName}}*\\n```{{scriptLogTail}}```"}}]}',
    );
    const { destination } = slack({ messageType: "formatted", templateFile: file, tailScriptLogLines: 2 });
    await destination.send(abortedAlert());
    const body = posted();
    expect(slackMessageProblems(body)).toEqual([]);
    expect(body.channel).toBe("sense-task-aborted");
    expect(body.blocks[0].text.text).toBe(
      "*Reload Sales dashboard*\n```20260620T140003.901+0200 Execution Failed\n20260620T140003.910+0200 Execution finished.```",
    );
  });

  it("falls back to the basic message, logged, when the template does not render", async () => {
    const file = template("bad.handlebars", "{{#each}}");
    const { destination, logger } = slack({ messageType: "formatted", templateFile: file });
    await destination.send(abortedAlert());
    expect(posted().blocks[0].type).toBe("header");
    expect(logger.at("warn")[0]?.message).toBe(
      "slack alert: template not used, the basic message is sent instead",
    );
  });

  it("posts once per task within rateLimit, and fails after timeoutSeconds without an answer", async () => {
    const { destination, rateLimit } = slack({ rateLimit: 300 }, 1);
    await destination.send(abortedAlert());
    expect((await destination.send(abortedAlert())).outcome).toBe("suppressed");
    expect(rateLimit.suppressed).toBe(1);
    server.respondWith("no answer");
    await expect(destination.send(abortedAlert({ taskId: "other" }))).rejects.toThrow(
      /no answer within 1000 ms/,
    );
  });
});
