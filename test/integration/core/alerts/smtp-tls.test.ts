/**
 * The SMTP client's TLS settings reach the connection: TLS from the first byte (`secure`) to a
 * server whose certificate is checked or not (`rejectUnauthorized`), and `requireTLS` refusing a
 * server that offers no STARTTLS.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSmtpClient } from "../../../../core/adapters/smtp/smtp-client.ts";
import { generateThrowawayPki } from "../../../../local/simulated-platform/throwaway-pki.ts";
import { emailConfig } from "../../../helpers/alert-configs.ts";
import { type SmtpCapture, startSmtpCapture } from "../../../helpers/smtp-capture.ts";

const email = {
  from: "a@example.com",
  to: "b@example.com",
  subject: "s",
  html: "<p>h</p>",
  text: "t",
  priority: "normal" as const,
};

describe("SMTP client TLS settings", () => {
  let tlsServer: SMTPServer;
  let tlsPort: number;
  let plain: SmtpCapture;
  const accepted: string[] = [];

  beforeAll(async () => {
    const pki = await generateThrowawayPki({ serverNames: ["127.0.0.1"] });
    tlsServer = new SMTPServer({
      secure: true,
      key: pki.server.key,
      cert: pki.server.cert,
      authOptional: true,
      logger: false,
      onData(stream, session, callback) {
        stream.resume();
        stream.on("end", () => {
          accepted.push(session.envelope.rcptTo[0]?.address ?? "");
          callback();
        });
      },
    });
    // The client that refuses the certificate closes the socket mid-handshake; the server reports it.
    tlsServer.on("error", () => {});
    await new Promise<void>((resolve) => tlsServer.listen(0, "127.0.0.1", resolve));
    tlsPort = (tlsServer.server.address() as AddressInfo).port;
    plain = await startSmtpCapture();
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
    await plain.stop();
  });

  const send = async (smtp: Record<string, unknown>) => {
    const sender = createSmtpClient(
      emailConfig({ smtp: { host: "127.0.0.1", timeoutSeconds: 5, ...smtp } }).smtp,
    );
    try {
      await sender.send(email);
    } finally {
      sender.close();
    }
  };

  it("sends over TLS from the first byte, and refuses a certificate it cannot verify unless told not to", async () => {
    await expect(send({ port: tlsPort, secure: true })).rejects.toThrow(/certificate/i);
    await send({ port: tlsPort, secure: true, tls: { rejectUnauthorized: false } });
    expect(accepted).toEqual(["b@example.com"]);
  });

  it("refuses to send over a plain connection with requireTLS", async () => {
    await expect(send({ port: plain.port, tls: { requireTLS: true } })).rejects.toThrow(/STARTTLS/i);
    expect(plain.received).toHaveLength(0);
    await send({ port: plain.port });
    expect(plain.received).toHaveLength(1);
  });
});
