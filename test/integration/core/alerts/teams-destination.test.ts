/**
 * Teams alerts through the HTTP poster to a capture server of ours, checked as a Workflows
 * trigger would check them: a message with an Adaptive Card attachment in both message types,
 * line ends and backslashes of the script log intact, the basic card when a template fails,
 * the rate limit per task and the time limit.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createChatWebhookClient } from "../../../../core/adapters/http-clients/chat-webhook-client.ts";
import { createChatDestination } from "../../../../core/alerts/chat/chat-destination.ts";
import { TEAMS } from "../../../../core/alerts/chat/teams.ts";
import { admitted } from "../../../helpers/admitted-destination.ts";
import { teamsConfig } from "../../../helpers/alert-configs.ts";
import { cardTextShown } from "../../../helpers/chat-markup-reading.ts";
import { teamsMessageProblems } from "../../../helpers/chat-payload-checks.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { captureServerForSuite } from "../../../helpers/suite-capture-server.ts";
import { available, failedReloadAlert, scriptLog } from "../../../helpers/task-alerts.ts";

const server = captureServerForSuite(202);
const directory = mkdtempSync(join(tmpdir(), "steward-teams-templates-"));
const template = (name: string, text: string) => {
  writeFileSync(join(directory, name), text);
  return join(directory, name);
};

function teams(failure: Record<string, unknown> = {}, timeoutSeconds = 5) {
  const config = teamsConfig({
    enable: true,
    timeoutSeconds,
    reloadTaskFailure: { enable: true, webhookURL: `${server.url}/workflows/abc?sig=secret-key`, ...failure },
  });
  const logger = recordingLogger();
  const { rateLimit, ...destination } = admitted(
    createChatDestination(config, TEAMS, {
      client: createChatWebhookClient(),
      readTemplate: (path) => readFile(path, "utf8"),
      logger,
      view: {
        links: {
          qlikSenseUrls: {
            qmc: "https://sense.example.com/qmc",
            hub: "https://sense.example.com/hub",
            appBaseUrl: "",
          },
          genericUrls: [],
        },
        hostName: "sense.example.com",
        timeZone: "UTC",
        version: "test",
      },
    }),
  );
  return { destination, logger, rateLimit };
}

const posted = () => JSON.parse(server.requests[0]?.body ?? "null");
// biome-ignore lint/suspicious/noExplicitAny: a parsed card is walked by the test.
const card = (): any => posted().attachments[0].content;
const texts = (element: unknown): string[] =>
  JSON.stringify(element)
    .match(/"text":"(?:[^"\\]|\\.)*"/g)
    ?.map((t) => JSON.parse(t.slice(7))) ?? [];

describe("Teams alert: the basic card", () => {
  it("posts JSON with one Adaptive Card 1.4 at full width, never a MessageCard", async () => {
    const { destination } = teams();
    expect(await destination.send(failedReloadAlert())).toEqual({ outcome: "sent", messages: 1 });
    const request = server.requests[0];
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/workflows/abc?sig=secret-key");
    expect(request?.headers["content-type"]).toMatch(/^application\/json/);
    expect(teamsMessageProblems(posted())).toEqual([]);
    expect(posted()).not.toHaveProperty("@type");
    expect(card().version).toBe("1.4");
    expect(card().msteams).toEqual({ width: "Full" });
    expect(card().body[0].text).toBe('Qlik Sense reload failed: "Reload Sales dashboard"');
    expect(card().actions.map((a: { title: string }) => a.title)).toEqual(["Open QMC", "Open Hub"]);
  });

  it("names the time zone of the run's start and end beside them", async () => {
    const { destination } = teams();
    await destination.send(failedReloadAlert());
    const facts = card().body[1].facts as { title: string; value: string }[];
    expect(facts).toContainEqual({ title: "Started (UTC)", value: "2026-06-20 12:00:01" });
    expect(facts.map((f) => f.title)).toContain("Ended (UTC)");
  });

  it("shows every script log line on its own, backslashes intact", async () => {
    const { destination } = teams();
    await destination.send(failedReloadAlert());
    const all = texts(card());
    expect(all).toContain("20260620T140003.901+0200 Execution Failed");
    // Card text is markdown: what Teams shows is the line as written, backslashes and all.
    expect(all.some((t) => cardTextShown(t).includes("\\\\fileserver\\sales\\orders_2026.qvd"))).toBe(true);
    expect(all.some((t) => t.includes("\n") || t.includes("\\n"))).toBe(false);
  });

  it("cuts a long log with a marker and stays under the size Teams accepts", async () => {
    const { destination } = teams({ tailScriptLogLines: 1000 });
    const long = Array.from({ length: 1000 }, (_, i) => `line ${i} ${"x".repeat(80)}`);
    await destination.send(failedReloadAlert({ scriptLog: available(scriptLog(long)) }));
    expect(teamsMessageProblems(posted())).toEqual([]);
    expect(texts(card()).some((t) => t.includes("characters of the script log left out"))).toBe(true);
    expect(texts(card())).toContain(long.at(-1));
  });
});

describe("Teams alert: formatted templates", () => {
  it("renders the template to the message JSON with line ends as line ends and backslashes kept", async () => {
    const file = template(
      "failed.handlebars",
      `{"type":"message","attachments":[{"contentType":"application/vnd.microsoft.card.adaptive","content":{"type":"AdaptiveCard","version":"1.4","body":[{"type":"TextBlock","text":"{{taskName}}"},{"type":"TextBlock","text":"{{scriptLogTail}}","wrap":true}]}}]}`,
    );
    const { destination } = teams({ messageType: "formatted", templateFile: file, tailScriptLogLines: 3 });
    await destination.send(failedReloadAlert({ taskName: 'Reload "Sales" \\ daily' }));
    expect(teamsMessageProblems(posted())).toEqual([]);
    expect(card().body[0].text).toBe('Reload "Sales" \\ daily');
    const tail = card().body[1].text as string;
    expect(tail.split("\n")).toHaveLength(3);
    expect(tail).not.toContain("\\n");
    expect(tail).toContain("(Native Path: \\\\fileserver\\sales\\orders_2026.qvd)");
  });

  it("renders a template in the shape operators' Teams templates have: buttons per generic link, a code block of details", async () => {
    const file = template(
      "operator.handlebars",
      `{"type":"message","attachments":[{"contentType":"application/vnd.microsoft.card.adaptive","contentUrl":null,
"content":{"type":"AdaptiveCard","version":"1.4","msteams":{"width":"Full"},
"body":[{"type":"FactSet","facts":[{"title":"Task:","value":"{{taskName}}"},{"title":"Owner:","value":"{{appOwnerUserDirectory}}/{{appOwnerUserId}}"}]},
{"type":"TextBlock","text":"{{executionDetailsConcatenated}}","wrap":true}],
"actions":[{"type":"Action.OpenUrl","title":"Open QMC","url":"{{qlikSenseQMC}}"}
{{#each genericUrls}},{"type":"Action.OpenUrl","title":"{{this.linkText}}","url":"{{this.url}}"}{{/each}}]}}]}`,
    );
    const config = teamsConfig({
      enable: true,
      reloadTaskFailure: {
        enable: true,
        webhookURL: `${server.url}/w`,
        messageType: "formatted",
        templateFile: file,
      },
    });
    const destination = admitted(
      createChatDestination(config, TEAMS, {
        client: createChatWebhookClient(),
        readTemplate: (path) => readFile(path, "utf8"),
        logger: recordingLogger(),
        view: {
          links: {
            qlikSenseUrls: { qmc: "https://sense.example.com/qmc", hub: "", appBaseUrl: "" },
            genericUrls: [
              {
                id: "runbook",
                linkText: 'Runbook "reloads"',
                comment: "",
                url: "https://wiki.example.com/r",
              },
            ],
          },
          hostName: "sense.example.com",
          version: "test",
        },
      }),
    );
    await destination.send(failedReloadAlert());
    expect(teamsMessageProblems(posted())).toEqual([]);
    expect(card().body[0].facts[1].value).toBe("LAB/ada");
    expect(card().actions.map((a: { title: string }) => a.title)).toEqual(["Open QMC", 'Runbook "reloads"']);
  });

  it("falls back to the basic card, logged, when the template is missing, is not JSON or renders a MessageCard", async () => {
    const notJson = template("broken.handlebars", '{"type":"message", {{taskName}}');
    const legacy = template("legacy.handlebars", '{"@type":"MessageCard","summary":"{{taskName}}"}');
    for (const file of [join(directory, "missing.handlebars"), notJson, legacy]) {
      server.requests.length = 0;
      const { destination, logger } = teams({ messageType: "formatted", templateFile: file });
      expect((await destination.send(failedReloadAlert())).outcome).toBe("sent");
      expect(teamsMessageProblems(posted())).toEqual([]);
      expect(card().body[0].text).toBe('Qlik Sense reload failed: "Reload Sales dashboard"');
      expect(logger.at("warn")[0]?.message).toBe(
        "teams alert: template not used, the basic message is sent instead",
      );
    }
  });
});

describe("Teams alert: rate limit, refusals and time limit", () => {
  it("posts once per task within rateLimit and counts the rest", async () => {
    const { destination, rateLimit } = teams({ rateLimit: 300 });
    await destination.send(failedReloadAlert());
    expect((await destination.send(failedReloadAlert())).outcome).toBe("suppressed");
    expect(rateLimit.suppressed).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it("fails with the status, without the URL's key, when the service refuses the post", async () => {
    server.respondWith(400);
    const { destination } = teams();
    const error = await destination.send(failedReloadAlert()).catch((e: Error) => e);
    expect(String(error)).toContain("HTTP 400");
    expect(String(error)).not.toContain("secret-key");
  });

  it("fails after timeoutSeconds when the service does not answer", async () => {
    server.respondWith("no answer");
    const { destination } = teams({}, 1);
    const started = Date.now();
    await expect(destination.send(failedReloadAlert())).rejects.toThrow(/no answer within 1000 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
