/**
 * The EmailClient contract (core/alerts/email/email-client.ts): every adapter runs this one suite
 * (see email-client.test.ts) against a real SMTP server on loopback, parsed as a mail server
 * would. A send is one message to one recipient, with the sender, subject, HTML and text parts
 * and priority as given; it resolves once the server took it, and rejects when the server refuses
 * the recipient or cannot be reached. `close` releases the client, and a second close is harmless.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { EmailClient, OutgoingEmail } from "../../core/alerts/index.ts";
import { freePort } from "../helpers/free-port.ts";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp-capture.ts";

/** Makes a client of the SMTP server at `port` on loopback. */
export type EmailClientFactory = (port: number) => EmailClient;

const EMAIL: OutgoingEmail = {
  from: "Qlik Sense <noreply@example.com>",
  to: "ops@example.com",
  subject: 'Reload "Sales" failed ✓',
  html: "<p>Reload <b>Sales</b> failed</p>",
  text: "Reload Sales failed",
  priority: "high",
};

export function describeEmailClientContract(name: string, create: EmailClientFactory): void {
  describe(`EmailClient contract: ${name}`, () => {
    let smtp: SmtpCapture;
    beforeAll(async () => {
      smtp = await startSmtpCapture();
    });
    afterAll(async () => {
      await smtp.stop();
    });
    beforeEach(() => {
      smtp.received.length = 0;
      smtp.refuse.clear();
    });

    it("sends one message to its one recipient, with the sender, subject, parts and priority given", async () => {
      const client = create(smtp.port);
      await client.send(EMAIL);
      client.close();

      expect(smtp.received).toHaveLength(1);
      const [received] = smtp.received;
      expect(received?.envelopeTo).toEqual(["ops@example.com"]);
      expect(received?.mail.from?.text).toBe('"Qlik Sense" <noreply@example.com>');
      expect(received?.mail.subject).toBe(EMAIL.subject);
      expect(String(received?.mail.html).trim()).toBe(EMAIL.html);
      expect(received?.mail.text?.trim()).toBe(EMAIL.text);
      expect(received?.mail.headers.get("priority")).toBe("high");
    });

    it("rejects when the server refuses the recipient, and sends nothing", async () => {
      smtp.refuse.add("ops@example.com");
      const client = create(smtp.port);
      await expect(client.send(EMAIL)).rejects.toThrow();
      client.close();
      expect(smtp.received).toEqual([]);
    });

    it("rejects when no server listens", async () => {
      const client = create(await freePort());
      await expect(client.send(EMAIL)).rejects.toThrow();
      client.close();
    });

    it("takes a second close without complaint", () => {
      const client = create(smtp.port);
      client.close();
      expect(() => client.close()).not.toThrow();
    });
  });
}
