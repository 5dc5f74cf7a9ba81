/**
 * Names and texts from data in Teams and Slack alerts, posted through the HTTP poster to a
 * capture server: a task named with a markdown link, emphasis and mentions reaches Teams with
 * every card text escaped (the operator's own markup in the title template kept) and Slack with
 * its notification text, fields and context escaped for mrkdwn; a formatted template gets the
 * escaping where it asks for it (`escapeMarkup`).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createChatWebhookClient } from "../../../../core/adapters/http-clients/chat-webhook-client.ts";
import { createChatDestination } from "../../../../core/alerts/chat/chat-destination.ts";
import { SLACK } from "../../../../core/alerts/chat/slack.ts";
import { TEAMS } from "../../../../core/alerts/chat/teams.ts";
import type {
  SlackNotificationConfig,
  TeamsNotificationConfig,
} from "../../../../core/config/schema/config.ts";
import { admitted } from "../../../helpers/admitted-destination.ts";
import { slackConfig, teamsConfig } from "../../../helpers/alert-configs.ts";
import {
  cardMarkupLeft,
  cardTextShown,
  slackControlSequences,
} from "../../../helpers/chat-markup-reading.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { captureServerForSuite } from "../../../helpers/suite-capture-server.ts";
import { failedReloadAlert, LINKS, notAvailable } from "../../../helpers/task-alerts.ts";

const server = captureServerForSuite(200);
const directory = mkdtempSync(join(tmpdir(), "steward-chat-markup-"));

const NAME = "[Reset your password](https://sso-reset.example.net/0) *now* <!channel> @here _urgent_";
const hostileAlert = () =>
  failedReloadAlert({ taskName: NAME, scriptLog: notAvailable("the log [was](http://evil) *gone*") });

const deps = () => ({
  client: createChatWebhookClient(),
  readTemplate: (path: string) => readFile(path, "utf8"),
  logger: recordingLogger(),
  view: { links: LINKS, hostName: "sense.example.com", timeZone: "UTC", version: "test" },
});
const teams = (config: TeamsNotificationConfig) => admitted(createChatDestination(config, TEAMS, deps()));
const slack = (config: SlackNotificationConfig) => admitted(createChatDestination(config, SLACK, deps()));
// biome-ignore lint/suspicious/noExplicitAny: the posted JSON is walked by the test.
const posted = (): any => JSON.parse(server.requests[0]?.body ?? "null");
const template = (name: string, text: string) => {
  writeFileSync(join(directory, name), text);
  return join(directory, name);
};

/** Every TextBlock text and fact title and value of a card, in order. */
function cardTexts(element: unknown): string[] {
  if (Array.isArray(element)) return element.flatMap(cardTexts);
  if (typeof element !== "object" || element === null) return [];
  const record = element as Record<string, unknown>;
  if (record.type === "TextBlock") return [String(record.text)];
  if (record.type === "FactSet")
    return (record.facts as { title: string; value: string }[]).flatMap((f) => [f.title, f.value]);
  return Object.values(record).flatMap(cardTexts);
}

describe("Teams: names from data in the card", () => {
  it("escapes every fact, the log and what was not available; the title keeps the operator's markup", async () => {
    const config = teamsConfig({
      enable: true,
      reloadTaskFailure: {
        enable: true,
        webhookURL: `${server.url}/teams`,
        basicMsgTemplate: "**{{taskName}}** failed",
      },
    });
    await teams(config).send(hostileAlert());

    const [title, ...rest] = cardTexts(posted().attachments[0].content.body);
    expect(title).toBe(
      "**\\[Reset your password\\](https://sso-reset.example.net/0) \\*now\\* <!channel> @here \\_urgent\\_** failed",
    );
    for (const text of rest) expect(cardMarkupLeft(text)).toEqual([]);
    expect(rest.map(cardTextShown)).toContain(NAME);
    expect(rest.map(cardTextShown).join("\n")).toContain("the log [was](http://evil) *gone*");
  });

  it("escapes a field in a formatted template where it asks (escapeMarkup), and only there", async () => {
    const file = template(
      "teams.handlebars",
      `{"type":"AdaptiveCard","version":"1.4","body":[{"type":"TextBlock","text":"{{escapeMarkup taskName}}"},{"type":"TextBlock","text":"{{taskName}}"}]}`,
    );
    const config = teamsConfig({
      enable: true,
      reloadTaskFailure: {
        enable: true,
        webhookURL: `${server.url}/teams`,
        messageType: "formatted",
        templateFile: file,
      },
    });
    const name = 'Say "hi" \\ [x](http://evil)';
    await teams(config).send(failedReloadAlert({ taskName: name }));

    const [escaped, raw] = cardTexts(posted().attachments[0].content.body);
    expect(escaped).toBe('Say "hi" \\\\ \\[x\\](http://evil)');
    expect(cardTextShown(escaped ?? "")).toBe(name);
    expect(raw).toBe(name);
  });
});

describe("Slack: names from data in the message", () => {
  it("escapes the notification text, the fields and the context; the header is plain text; no link_names", async () => {
    const config = slackConfig({
      enable: true,
      reloadTaskFailure: {
        enable: true,
        webhookURL: `${server.url}/slack`,
        basicMsgTemplate: "<!channel> Reload failed: {{taskName}}",
      },
    });
    await slack(config).send(hostileAlert());

    const message = posted();
    expect(message.text).toBe(
      "<!channel> Reload failed: [Reset your password](https://sso-reset.example.net/0) *now* &lt;!channel&gt; @here _urgent_",
    );
    expect(slackControlSequences(message.text)).toEqual(["<!channel>"]);
    expect(message.blocks[0]).toEqual({
      type: "header",
      text: { type: "plain_text", text: `<!channel> Reload failed: ${NAME}` },
    });
    const mrkdwn = JSON.stringify(message.blocks.slice(1)).match(/"text":"(?:[^"\\]|\\.)*"/g) ?? [];
    for (const text of mrkdwn) expect(slackControlSequences(JSON.parse(text.slice(7)))).toEqual([]);
    expect(message).not.toHaveProperty("link_names");
    expect(message).not.toHaveProperty("parse");
  });

  it("escapes a field in a formatted template where it asks (escapeMarkup)", async () => {
    const file = template("slack.handlebars", `{"text":"{{escapeMarkup taskName}} / {{taskName}}"}`);
    const config = slackConfig({
      enable: true,
      reloadTaskFailure: {
        enable: true,
        webhookURL: `${server.url}/slack`,
        messageType: "formatted",
        templateFile: file,
      },
    });
    await slack(config).send(failedReloadAlert({ taskName: "<!here> & co" }));

    expect(posted().text).toBe("&lt;!here&gt; &amp; co / <!here> & co");
  });
});
