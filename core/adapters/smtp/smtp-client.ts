/**
 * The SMTP client of alert emails: one nodemailer transport for the process with the
 * `emailNotification.smtp` settings, and a time limit on connecting, the greeting and every
 * socket wait, so that a server that hangs fails the email instead of holding it.
 *
 * The transport keeps a small pool of connections (POOL_CONNECTIONS), each closed once idle for
 * POOL_IDLE_MS: a night of failing tasks sends hundreds of emails within seconds, and a new
 * connection (TCP, greeting, EHLO, STARTTLS, login) per message cost more than the message; the
 * pool also bounds how many messages are built and sent at once, whatever the number of runs in
 * flight. A quiet site holds no connection between alerts, and the alerts part closes the pool at
 * stop. In a cloud function, a connection the server closed while the function was frozen fails
 * on its next use, and the pool sends the message again on a new connection.
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

/** Connections open at once to the SMTP server; nodemailer's default, which mail servers allow. */
export const POOL_CONNECTIONS = 5;
/** How long a connection stays open with nothing to send: the rest of a burst, not the night. */
export const POOL_IDLE_MS = 5000;

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
      pool: true,
      maxConnections: POOL_CONNECTIONS,
      // Below the socket time limit, so that an idle connection is closed by us, never timed out.
      idleTimeout: Math.min(POOL_IDLE_MS, timeoutMs / 2),
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
