/**
 * The SMTP client sends a burst of alert emails over a few pooled connections to a real SMTP
 * server, and closes each once it has been idle, so a quiet site holds no connection between
 * alerts; closing the client closes what is open at once.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSmtpClient, POOL_CONNECTIONS } from "../../../../../core/adapters/smtp/smtp-client.ts";
import { emailConfig } from "../../../../helpers/alert-configs.ts";
import { type SmtpCapture, startSmtpCapture } from "../../../../helpers/smtp-capture.ts";

const BURST = 20;
const email = (n: number) => ({
  from: "steward@example.com",
  to: "ops@example.com",
  subject: `Reload failed ${n}`,
  html: `<p>run ${n}</p>`,
  text: `run ${n}`,
  priority: "high" as const,
});

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}

describe("the SMTP client's pool", () => {
  let smtp: SmtpCapture;
  beforeEach(async () => {
    smtp = await startSmtpCapture();
  });
  afterEach(() => smtp.stop());

  // timeoutSeconds 1: a connection is closed after half of it idle (500 ms).
  const settings = () =>
    emailConfig({ smtp: { host: "127.0.0.1", port: smtp.port, timeoutSeconds: 1 } }).smtp;

  it(`sends ${BURST} emails at once over at most ${POOL_CONNECTIONS} connections, then closes them when idle`, async () => {
    const client = createSmtpClient(settings());
    try {
      await Promise.all(Array.from({ length: BURST }, (_, n) => client.send(email(n))));
      expect(smtp.received.map((received) => received.mail.subject).sort()).toEqual(
        Array.from({ length: BURST }, (_, n) => `Reload failed ${n}`).sort(),
      );
      expect(smtp.connections.opened).toBeGreaterThan(0);
      expect(smtp.connections.opened).toBeLessThanOrEqual(POOL_CONNECTIONS);
      expect(await until(() => smtp.connections.open === 0, 5000)).toBe(true);
      // The next alert opens a connection again.
      await client.send(email(BURST));
      expect(smtp.received).toHaveLength(BURST + 1);
    } finally {
      client.close();
    }
  });

  it("closes its open connections when it is closed", async () => {
    const client = createSmtpClient(emailConfig({ smtp: { host: "127.0.0.1", port: smtp.port } }).smtp);
    await client.send(email(1));
    expect(smtp.connections.open).toBe(1);
    client.close();
    expect(await until(() => smtp.connections.open === 0, 2000)).toBe(true);
  });
});
