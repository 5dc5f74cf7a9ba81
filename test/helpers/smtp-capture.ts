/**
 * A real SMTP server on loopback (the `smtp-server` package) that parses every message it
 * accepts (`mailparser`), so tests see what a mail server would: envelope recipients, headers,
 * subject, HTML and text parts. It can refuse recipients or hold the connection to test failures,
 * and counts the connections clients opened and those still open.
 */
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedEmail {
  readonly envelopeTo: readonly string[];
  readonly mail: ParsedMail;
}

export interface SmtpCapture {
  readonly port: number;
  readonly received: ReceivedEmail[];
  /** Recipients the server answers 550 to. */
  readonly refuse: Set<string>;
  /** Connections opened since the start, and those open now. */
  readonly connections: { opened: number; open: number };
  stop(): Promise<void>;
}

export async function startSmtpCapture(): Promise<SmtpCapture> {
  const received: ReceivedEmail[] = [];
  const refuse = new Set<string>();
  const connections = { opened: 0, open: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onConnect(_session, callback) {
      connections.opened += 1;
      connections.open += 1;
      callback();
    },
    onClose() {
      connections.open -= 1;
    },
    onRcptTo(address, _session, callback) {
      if (refuse.has(address.address.toLowerCase())) {
        const error = Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({ envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address), mail });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    refuse,
    connections,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
