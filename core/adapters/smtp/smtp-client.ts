/**
 * The SMTP client of alert emails: one nodemailer transport for the process with the
 * `emailNotification.smtp` settings, and a time limit on connecting, the greeting and every
 * socket wait, so that a server that hangs fails the email instead of holding it. It opens a
 * connection per message rather than a pool: alerts are rare, and an idle pooled connection
 * would outlive the alert and hold the process at shutdown.
 *
 * With authentication but neither `secure` nor `tls.requireTLS`, the password is sent in clear
 * whenever the server offers no STARTTLS, and anyone on the path can strip that offer from the
 * server's greeting: said once at WARN when the first sender of these settings is made (at start;
 * task and licence alerts share the settings, so it is said once for both).
 *
 * nodemailer (about 250 kB) is imported when the client is made, not when this file is: a Lambda
 * function that carries the alert channels (the Qlik Cloud functions) then neither reads nor
 * compiles it at a cold start while email is off (infra/functions.ts, code splitting).
 */
import type { EmailClient, OutgoingEmail } from "../../alerts/index.ts";
import type { EmailNotificationConfig } from "../../config/index.ts";
import type { Logger } from "../../ports.ts";

type SmtpConfig = EmailNotificationConfig["smtp"];

/** The settings whose clear-text risk was already said. */
const warned = new WeakSet<SmtpConfig>();

/** Why the SMTP password can cross the network in clear, or undefined when it cannot. */
export function cleartextPasswordRisk(smtp: SmtpConfig): string | undefined {
  if (!smtp.auth.enable || smtp.secure) return undefined;
  if (smtp.tls.ignoreTLS) return "tls.ignoreTLS is on, so the password always goes to the server in clear";
  if (smtp.tls.requireTLS) return undefined;
  return "neither secure nor tls.requireTLS is on, so the password goes in clear whenever the server offers no STARTTLS, and anyone on the path can remove that offer";
}

/** `logger`: where the clear-text risk is said, once for these settings. */
export function createSmtpClient(smtp: SmtpConfig, options: { logger?: Logger } = {}): EmailClient {
  const risk = cleartextPasswordRisk(smtp);
  if (risk !== undefined && options.logger !== undefined && !warned.has(smtp)) {
    warned.add(smtp);
    options.logger.warn(
      `SMTP authentication without TLS: ${risk}; set emailNotification.smtp.secure: true (TLS from the first byte, port 465) or emailNotification.smtp.tls.requireTLS: true`,
      { host: smtp.host, port: smtp.port },
    );
  }
  const timeoutMs = smtp.timeoutSeconds * 1000;
  const transport = import("nodemailer").then(({ default: nodemailer }) =>
    nodemailer.createTransport({
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
    }),
  );
  // A failed import fails each send; unawaited until then, it is not an unhandled rejection.
  transport.catch(() => undefined);
  return {
    async send(email: OutgoingEmail) {
      await (await transport).sendMail({
        from: email.from,
        to: email.to,
        subject: email.subject,
        html: email.html,
        text: email.text,
        priority: email.priority,
      });
    },
    close() {
      void transport.then(
        (made) => made.close(),
        () => undefined,
      );
    },
  };
}
