/** An SMTP server that accepts the connection and never greets fails the email within smtp.timeoutSeconds. */

import type { AddressInfo } from "node:net";
import { createServer, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { createSmtpClient } from "../../../../core/adapters/smtp/smtp-client.ts";
import { emailConfig } from "../../../helpers/alert-configs.ts";

describe("SMTP client time limit", () => {
  it("fails a send to a server that never greets after timeoutSeconds", async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const sender = createSmtpClient(
      emailConfig({ smtp: { host: "127.0.0.1", port, timeoutSeconds: 1 } }).smtp,
    );
    const started = Date.now();
    try {
      await expect(
        sender.send({
          from: "a@example.com",
          to: "b@example.com",
          subject: "s",
          html: "h",
          text: "t",
          priority: "normal",
        }),
      ).rejects.toThrow(/Greeting never received|timeout/i);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      sender.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
