/**
 * Alert emails through the SMTP client to a real SMTP server on loopback, parsed as a mail
 * server would: who receives, what the message holds, and that a broken template, a missing
 * script log or an unreachable owner never loses the alert.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSmtpClient } from "../../../../core/adapters/smtp/smtp-client.ts";
import type { EmailClient } from "../../../../core/alerts/email/email-client.ts";
import { createEmailDestination } from "../../../../core/alerts/email/email-destination.ts";
import { admitted } from "../../../helpers/admitted-destination.ts";
import { emailConfig } from "../../../helpers/alert-configs.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";
import { type SmtpCapture, startSmtpCapture } from "../../../helpers/smtp-capture.ts";
import { available, failedReloadAlert, LINKS, notAvailable, taskInfo } from "../../../helpers/task-alerts.ts";

let smtp: SmtpCapture;
const senders: EmailClient[] = [];

beforeAll(async () => {
  smtp = await startSmtpCapture();
});
afterAll(async () => {
  await smtp.stop();
});
afterEach(() => {
  smtp.received.length = 0;
  smtp.refuse.clear();
  for (const sender of senders.splice(0)) sender.close();
});

function destination(
  failure: Record<string, unknown> = {},
  options: { readTemplate?: (p: string) => Promise<string> } = {},
) {
  const config = emailConfig({
    enable: true,
    smtp: { host: "127.0.0.1", port: smtp.port, timeoutSeconds: 5 },
    reloadTaskFailure: {
      enable: true,
      fromAddress: "Qlik Sense <noreply@example.com>",
      recipients: ["ops@example.com"],
      ...failure,
    },
  });
  const sender = createSmtpClient(config.smtp);
  senders.push(sender);
  const logger = recordingLogger();
  const { rateLimit, ...email } = admitted(
    createEmailDestination(config, {
      client: sender,
      logger,
      view: { links: LINKS, hostName: "sense.example.com", timeZone: "UTC", version: "test" },
      readTemplate: options.readTemplate ?? ((path) => readFile(path, "utf8")),
    }),
  );
  return { email, logger, rateLimit };
}

const byRecipient = () =>
  Object.fromEntries(smtp.received.map((each) => [each.envelopeTo.join(","), each.mail]));

describe("alert email: the built-in message", () => {
  it("sends subject, HTML and text parts with the task, app, times and the script log tail, at high priority", async () => {
    const { email } = destination();
    const result = await email.send(failedReloadAlert());
    expect(result).toEqual({ outcome: "sent", messages: 1 });
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]?.mail;
    expect(mail?.subject).toBe('Qlik Sense reload failed: "Reload Sales dashboard"');
    expect(mail?.from?.text).toBe('"Qlik Sense" <noreply@example.com>');
    // The parser folds X-Priority, X-MSMail-Priority and Importance into one "priority" header.
    expect(mail?.headers.get("priority")).toBe("high");
    const html = String(mail?.html);
    expect(html).toContain("Reload failed");
    expect(html).toContain("Reload Sales dashboard");
    expect(html).toContain('href="https://sense.example.com/sense/app/7d2b9e10-3c4d-4e5f-9a0b-c1d2e3f4a5b6"');
    expect(html).toMatch(/Started \(UTC\)<\/td>\s*<td[^>]*>2026-06-20 12:00:01/);
    expect(mail?.text).toContain("Started:      2026-06-20 12:00:01 (UTC)");
    expect(html).toMatch(/<pre[^>]*>[^<]*Execution Failed/);
    expect(html).toContain("Open QMC");
    expect(mail?.text).toContain("Duration:     0 h 0 min 2 s");
    expect(mail?.text).toContain("Cannot open file: 'lib://Sales/orders_2026.qvd'");
  });

  it("escapes HTML in task names and log lines", async () => {
    const { email } = destination();
    await email.send(failedReloadAlert({ taskName: 'Reload <b>"x"</b>' }));
    const html = String(smtp.received[0]?.mail.html);
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;b&gt;");
  });

  it("sends the email with the script log marked not available when the log could not be fetched", async () => {
    const { email } = destination();
    const result = await email.send(failedReloadAlert({ scriptLog: notAvailable("download answered 404") }));
    expect(result.outcome).toBe("sent");
    const mail = smtp.received[0]?.mail;
    expect(mail?.text).toContain("not available");
    expect(mail?.text).toContain("scriptLog: download answered 404");
  });
});

describe("alert email: distribute and preload tasks", () => {
  it("sends a distribute task's failure with its own heading and subject, and no script log", async () => {
    const { email } = destination({ enable: false });
    const config = emailConfig({
      enable: true,
      smtp: { host: "127.0.0.1", port: smtp.port },
      distributeTaskFailure: {
        enable: true,
        fromAddress: "noreply@example.com",
        recipients: ["ops@example.com"],
      },
    });
    expect(email.handles("distributeTaskFailure")).toBe(false);
    const sender = createSmtpClient(config.smtp);
    senders.push(sender);
    const distribute = admitted(
      createEmailDestination(config, {
        client: sender,
        logger: recordingLogger(),
        view: { links: LINKS, hostName: "sense.example.com", version: "test" },
        readTemplate: (path) => readFile(path, "utf8"),
      }),
    );
    expect(distribute.handles("distributeTaskFailure")).toBe(true);
    expect(distribute.handles("preloadTaskFailure")).toBe(false);
    await distribute.send(failedReloadAlert({ kind: "distributeTaskFailure" }));
    const mail = smtp.received[0]?.mail;
    expect(mail?.subject).toBe('Qlik Sense distribute task failed: "Reload Sales dashboard"');
    expect(String(mail?.html)).toContain("Distribute task failed");
    expect(String(mail?.html)).not.toContain("script log");
  });
});

describe("alert email: the operator's templates", () => {
  const directory = mkdtempSync(join(tmpdir(), "steward-email-templates-"));
  writeFileSync(
    join(directory, "failed-reload-qseow.handlebars"),
    '<p>Task {{taskName}} {{#if (eq executionStatusText "FinishedFail")}}FAILED{{/if}}</p>',
  );
  writeFileSync(join(directory, "broken.handlebars"), "<p>{{#if taskName}}unclosed</p>");

  it("renders the template file with Butler's fields and the eq helper, found under Butler's sample name", async () => {
    const { email } = destination({ bodyFileDirectory: directory, htmlTemplateFile: "failed-reload" });
    await email.send(failedReloadAlert());
    expect(String(smtp.received[0]?.mail.html)).toContain("<p>Task Reload Sales dashboard FAILED</p>");
  });

  it("sends a plain message with the key fields when the template does not render, and logs why", async () => {
    const { email, logger } = destination({ bodyFileDirectory: directory, htmlTemplateFile: "broken" });
    const result = await email.send(failedReloadAlert());
    expect(result.outcome).toBe("sent");
    const mail = smtp.received[0]?.mail;
    expect(mail?.text).toContain("Reload failed: Reload Sales dashboard");
    expect(mail?.text).toContain("Execution id: e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b");
    expect(logger.at("warn").map((entry) => entry.message)).toContain(
      "Alert email: template not used, a plain message is sent instead",
    );
  });

  it("sends a plain message when the template file is missing, and a plain subject when the subject does not render", async () => {
    const { email, logger } = destination({
      bodyFileDirectory: directory,
      htmlTemplateFile: "nowhere",
      subject: "{{#each}}",
    });
    await email.send(failedReloadAlert());
    const mail = smtp.received[0]?.mail;
    expect(mail?.subject).toBe('Qlik Sense reload failed: "Reload Sales dashboard"');
    expect(mail?.text).toContain("Status: FinishedFail");
    const problems = logger.at("warn").map((entry) => String(entry.fields?.problem));
    expect(problems.some((problem) => problem.startsWith("subject:"))).toBe(true);
    expect(problems.some((problem) => problem.includes("not found or not readable"))).toBe(true);
  });
});

describe("alert email: recipients", () => {
  it("sends one email each to the task's addresses, the list and the app owner, without duplicates", async () => {
    const { email } = destination({
      recipients: ["ops@example.com", "OPS@example.com"],
      appOwnerAlert: { enable: true },
    });
    const task = taskInfo({
      customProperties: [
        { name: "Butler_FailedAlertSendToEmail", value: "team@example.com; ops@example.com" },
      ],
    });
    const result = await email.send(failedReloadAlert({ task: available(task) }));
    expect(result).toEqual({ outcome: "sent", messages: 3 });
    expect(Object.keys(byRecipient()).sort()).toEqual([
      "ada.owner@example.com",
      "ops@example.com",
      "team@example.com",
    ]);
  });

  it("still emails the list when the app owner could not be looked up", async () => {
    const { email, logger } = destination({ appOwnerAlert: { enable: true } });
    const result = await email.send(failedReloadAlert({ appOwner: notAvailable("repository answered 500") }));
    expect(result).toEqual({ outcome: "sent", messages: 1 });
    expect(logger.at("warn").some((entry) => entry.message.includes("app owner not available"))).toBe(true);
  });

  it("skips with a reason when nobody is to receive it", async () => {
    const { email } = destination({ recipients: [] });
    expect(await email.send(failedReloadAlert())).toEqual({ outcome: "skipped", reason: "no recipient" });
    expect(smtp.received).toHaveLength(0);
  });
});

describe("alert email: rate limit and failures", () => {
  it("leaves out a second alert of the same task to the same recipient within rateLimit, and counts it", async () => {
    const { email, rateLimit } = destination({ rateLimit: 600 });
    expect((await email.send(failedReloadAlert())).outcome).toBe("sent");
    expect((await email.send(failedReloadAlert())).outcome).toBe("suppressed");
    expect(rateLimit.suppressed).toBe(1);
    expect(smtp.received).toHaveLength(1);
    expect((await email.send(failedReloadAlert({ taskId: "another-task" }))).outcome).toBe("sent");
  });

  it("sends to the others and then fails with the count when the server refuses one recipient", async () => {
    smtp.refuse.add("bad@example.com");
    const { email } = destination({ recipients: ["ops@example.com", "bad@example.com"] });
    await expect(email.send(failedReloadAlert())).rejects.toThrow(/1 of 2 alert emails failed \(1 sent\)/);
    expect(Object.keys(byRecipient())).toEqual(["ops@example.com"]);
  });
});
