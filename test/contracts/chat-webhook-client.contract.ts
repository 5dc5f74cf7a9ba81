/**
 * The ChatWebhookClient contract (core/alerts/chat/chat-webhook-client.ts): every adapter runs
 * this one suite (see chat-webhook-client.test.ts) against a loopback capture server standing in
 * for Teams' and Slack's webhooks. A post is one JSON POST of the message to the exact URL;
 * it resolves on any 2xx answer and rejects otherwise: on a refusal naming the status, when
 * nothing listens, and when no answer comes within `timeoutMs`. The URL carries the service's key,
 * so no rejection names it.
 */
import { describe, expect, it } from "vitest";
import type { ChatWebhookClient } from "../../core/alerts/index.ts";
import { freePort } from "../helpers/free-port.ts";
import { captureServerForSuite } from "../helpers/suite-capture-server.ts";
import { timed } from "../helpers/timed.ts";

const TIMEOUT_MS = 300;
const SECRET_PATH = "/workflows/abc/triggers/manual?sig=secret-key";
const MESSAGE = { type: "message", text: 'Reload "Sales" failed ✓\nline 2', attachments: [{ n: 1 }] };

export function describeChatWebhookClientContract(name: string, create: () => ChatWebhookClient): void {
  describe(`ChatWebhookClient contract: ${name}`, () => {
    const server = captureServerForSuite(202);

    it("posts the message once as JSON to the exact URL", async () => {
      await create().post(`${server.url}${SECRET_PATH}`, MESSAGE, TIMEOUT_MS);

      expect(server.requests).toHaveLength(1);
      const [request] = server.requests;
      expect(request?.method).toBe("POST");
      expect(request?.path).toBe(SECRET_PATH);
      expect(request?.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(request?.body ?? "")).toEqual(MESSAGE);
    });

    it("resolves for any 2xx answer", async () => {
      for (const status of [200, 202, 204]) {
        server.respondWith(status);
        await expect(create().post(server.url, MESSAGE, TIMEOUT_MS)).resolves.toBeUndefined();
      }
    });

    it("rejects a refusal naming the status, never the URL", async () => {
      for (const status of [400, 403, 500]) {
        server.respondWith(status);
        const { error } = await timed(create().post(`${server.url}${SECRET_PATH}`, MESSAGE, TIMEOUT_MS));
        expect(String(error)).toContain(String(status));
        expect(String(error)).not.toContain("secret-key");
      }
    });

    it("rejects at once, without the URL, when nothing listens there", async () => {
      const url = `http://127.0.0.1:${await freePort()}${SECRET_PATH}`;
      const { error, elapsedMs } = await timed(create().post(url, MESSAGE, TIMEOUT_MS));
      expect(error).toBeInstanceOf(Error);
      expect(String(error)).not.toContain("secret-key");
      expect(elapsedMs).toBeLessThan(TIMEOUT_MS * 5);
    });

    it("rejects when no answer comes within timeoutMs", async () => {
      server.respondWith("no answer");
      const { error, elapsedMs } = await timed(create().post(server.url, MESSAGE, TIMEOUT_MS));
      expect(String(error)).toMatch(new RegExp(`no answer within ${TIMEOUT_MS} ms`));
      expect(elapsedMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
      expect(elapsedMs).toBeLessThan(TIMEOUT_MS * 5);
    });
  });
}
