/**
 * The reload-task benchmark's baseline: the least a program can do to turn a failed-reload
 * datagram into its alerts. A node:dgram socket that, for each datagram, splits it on ";" and at
 * once sends one email per recipient with nodemailer and posts one JSON body each to the Teams and
 * webhook URLs: no queue, no lookup in the repository, no template, no rate limit, no InfluxDB or
 * broker. Steward's time to deliver the same burst is reported as a ratio of this one's.
 */
import { createSocket } from "node:dgram";
import nodemailer from "nodemailer";

export interface TrivialAlerter {
  readonly port: number;
  /** Resolves once every alert of every datagram received so far has been handed over. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

export async function startTrivialAlerter(options: {
  smtpPort: number;
  recipients: readonly string[];
  urls: readonly string[];
}): Promise<TrivialAlerter> {
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port: options.smtpPort,
    ignoreTLS: true,
  });
  const pending = new Set<Promise<unknown>>();
  const socket = createSocket("udp4");
  socket.on("message", (datagram) => {
    const [, node, taskName, appName, , taskId, , , , executionId] = datagram.toString("utf8").split(";");
    const text = `Reload failed: ${taskName} (${appName}) on ${node}, task ${taskId}, execution ${executionId}`;
    const work = Promise.all([
      ...options.recipients.map((to) =>
        transport.sendMail({ from: "steward@example.com", to, subject: text, text }),
      ),
      ...options.urls.map((url) =>
        fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ text }),
        }),
      ),
    ]);
    pending.add(work);
    void work.finally(() => pending.delete(work));
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    port: socket.address().port,
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    async stop() {
      await new Promise<void>((resolve) => socket.close(resolve));
      transport.close();
    },
  };
}
