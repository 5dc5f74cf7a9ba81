/**
 * SMTP authentication that can cross the network in clear is said at start: a real SMTP server on
 * loopback that offers no STARTTLS (as one whose offer a man in the middle removed) receives the
 * password over the plain connection unless `secure` or `tls.requireTLS` forbids it, and the
 * sender's settings say so once, at WARN, when it is made; with either setting, or without
 * authentication, nothing is said.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSmtpClient } from "../../../../core/adapters/smtp/smtp-client.ts";
import { systemClock } from "../../../../core/system-clock.ts";
import { openAlertClients } from "../../../../functions/alerts/alert-clients.ts";
import { emailConfig, newRelicConfig } from "../../../helpers/alert-configs.ts";
import { recordingLogger } from "../../../helpers/recording-logger.ts";

const email = {
  from: "a@example.com",
  to: "b@example.com",
  subject: "s",
  html: "<p>h</p>",
  text: "t",
  priority: "normal" as const,
};

const WARNING = /^SMTP authentication without TLS: .*STARTTLS.*; set emailNotification\.smtp\.secure: true/;

describe("SMTP authentication without TLS", () => {
  let server: SMTPServer;
  let port: number;
  const passwordsSeen: string[] = [];

  beforeAll(async () => {
    server = new SMTPServer({
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        passwordsSeen.push(auth.password ?? "");
        callback(null, { user: auth.username });
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on("end", () => callback());
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const smtpWith = (smtp: Record<string, unknown>) =>
    emailConfig({
      smtp: { host: "127.0.0.1", port, timeoutSeconds: 5, auth: { enable: true, user: "alerts" }, ...smtp },
    }).smtp;

  it("is said once at WARN when the sender is made, and the password does reach the server in clear", async () => {
    const logger = recordingLogger();
    const smtp = smtpWith({ auth: { enable: true, user: "alerts", password: "s3cret" } });

    const sender = createSmtpClient(smtp, { logger });
    createSmtpClient(smtp, { logger }).close();
    try {
      await sender.send(email);
    } finally {
      sender.close();
    }

    const warnings = logger.at("warn");
    expect(warnings.map((entry) => entry.message)).toEqual([expect.stringMatching(WARNING)]);
    expect(warnings[0]?.fields).toEqual({ host: "127.0.0.1", port });
    expect(passwordsSeen).toContain("s3cret");
  });

  it("names ignoreTLS, which always sends the password in clear", () => {
    const logger = recordingLogger();

    createSmtpClient(smtpWith({ tls: { ignoreTLS: true, requireTLS: true } }), { logger }).close();

    expect(logger.at("warn")[0]?.message).toMatch(/tls\.ignoreTLS is on, so the password always goes/);
  });

  it("is not said with requireTLS, which refuses the plain server, with secure, or without a password", async () => {
    const logger = recordingLogger();
    const required = createSmtpClient(smtpWith({ tls: { requireTLS: true } }), { logger });
    const before = passwordsSeen.length;

    await expect(required.send(email)).rejects.toThrow(/STARTTLS/i);
    required.close();
    createSmtpClient(smtpWith({ secure: true }), { logger }).close();
    createSmtpClient(smtpWith({ auth: { enable: false } }), { logger }).close();

    expect(logger.at("warn")).toEqual([]);
    expect(passwordsSeen).toHaveLength(before);
  });

  it("is said by the alert clients the local process builds", () => {
    const logger = recordingLogger();
    const config = {
      emailNotification: emailConfig({
        enable: true,
        smtp: { host: "127.0.0.1", port, auth: { enable: true, user: "alerts" } },
        reloadTaskFailure: {
          enable: true,
          fromAddress: "noreply@example.com",
          recipients: ["ops@example.com"],
        },
      }),
      incidentTool: { newRelic: newRelicConfig({}) },
    };

    openAlertClients({ config, logger, clock: systemClock }).close();

    expect(logger.at("warn").map((entry) => entry.message)).toEqual([expect.stringMatching(WARNING)]);
  });
});
