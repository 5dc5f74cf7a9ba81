/**
 * The SMTP client of alert emails: one nodemailer transport for the process with the
 * `emailNotification.smtp` settings, and a time limit on connecting, the greeting and every
 * socket wait, so that a server that hangs fails the email instead of holding it. It opens a
 * connection per message rather than a pool: alerts are rare, and an idle pooled connection
 * would outlive the alert and hold the process at shutdown.
 */
import nodemailer from "nodemailer";
import type { EmailSender, OutgoingEmail } from "../../alerts/email-sender.ts";
import type { EmailNotificationConfig } from "../../config/schema/config.ts";

type SmtpConfig = EmailNotificationConfig["smtp"];

export function createSmtpSender(smtp: SmtpConfig): EmailSender {
  const timeoutMs = smtp.timeoutSeconds * 1000;
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ignoreTLS: smtp.tls.ignoreTLS,
    requireTLS: smtp.tls.requireTLS,
    tls: {
      rejectUnauthorized: smtp.tls.rejectUnauthorized,
      ...(smtp.tls.serverName === "" ? {} : { servername: smtp.tls.serverName }),
    },
    ...(smtp.auth.enable ? { auth: { user: smtp.auth.user, pass: smtp.auth.password } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    async send(email: OutgoingEmail) {
      await transport.sendMail({
        from: email.from,
        to: email.to,
        subject: email.subject,
        html: email.html,
        text: email.text,
        priority: email.priority,
      });
    },
    close() {
      transport.close();
    },
  };
}
