/**
 * The ChatClient contract: every adapter runs this one suite (see chat-client.test.ts) against a
 * loopback capture server standing in for the chat webhook. What an adapter promises depends on
 * its kind:
 * - "webhook": one JSON POST per message to the exact webhook URL, as a Slack-style incoming
 *   webhook reads it; a non-2xx answer, an unreachable endpoint or no answer within `timeoutMs`
 *   gives UpstreamError (502), whose message never carries the webhook URL (it holds a secret).
 * - "disabled" (no webhook URL configured): every post is refused with FeatureDisabledError (503)
 *   and nothing is sent.
 */

import { describe, expect, it } from "vitest";
import type { ChatClient, ChatMessage } from "../../core/ports.ts";
import { FeatureDisabledError, UpstreamError } from "../../core/upstream-error.ts";
import { freePort } from "../helpers/free-port.ts";
import { captureServerForSuite } from "../helpers/suite-capture-server.ts";
import { timed } from "../helpers/timed.ts";

export interface ChatClientTarget {
  webhookURL: string;
  /** Time limit of one post. */
  timeoutMs: number;
}

export interface ChatClientFactory {
  kind: "webhook" | "disabled";
  create(target: ChatClientTarget): ChatClient;
}

const TIMEOUT_MS = 300;
const AT_ONCE_MS = 500;
const SLACK_MS = 1500;
const SECRET_PATH = "/services/T000/B000/secret-token";

const message: ChatMessage = {
  channel: "#reload",
  from_user: "Steward",
  msg: 'Reload of *Sales* failed ✓\nline 2 <@U123> "quoted"',
  emoji: ":warning:",
};

export function describeChatClientContract(name: string, factory: ChatClientFactory): void {
  describe(`ChatClient contract: ${name}`, () => {
    const server = captureServerForSuite(200);

    const clientAt = (webhookURL: string) => factory.create({ webhookURL, timeoutMs: TIMEOUT_MS });

    if (factory.kind === "disabled") {
      it("refuses every post with FeatureDisabledError and sends nothing", async () => {
        const client = clientAt(`${server.url}${SECRET_PATH}`);

        const { error } = await timed(client.postMessage(message));

        expect(error).toBeInstanceOf(FeatureDisabledError);
        expect(server.requests).toEqual([]);
      });
      return;
    }

    it("posts the message once as JSON {channel, username, text, icon_emoji} to the exact webhook URL", async () => {
      const client = clientAt(`${server.url}${SECRET_PATH}?thread=42`);

      await client.postMessage(message);

      expect(server.requests).toHaveLength(1);
      const [request] = server.requests;
      expect(request?.method).toBe("POST");
      expect(request?.path).toBe(`${SECRET_PATH}?thread=42`);
      expect(request?.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(JSON.parse(request?.body ?? "")).toEqual({
        channel: "#reload",
        username: "Steward",
        text: 'Reload of *Sales* failed ✓\nline 2 <@U123> "quoted"',
        icon_emoji: ":warning:",
      });
    });

    it("omits icon_emoji when the message has no emoji or an empty one", async () => {
      const client = clientAt(server.url);
      const { emoji: _, ...plain } = message;

      await client.postMessage(plain);
      await client.postMessage({ ...plain, emoji: "" });

      for (const request of server.requests) {
        expect(JSON.parse(request.body)).toEqual({
          channel: plain.channel,
          username: plain.from_user,
          text: plain.msg,
        });
      }
      expect(server.requests).toHaveLength(2);
    });

    it("resolves for any 2xx answer", async () => {
      const client = clientAt(server.url);

      for (const status of [200, 201, 202, 204]) {
        server.respondWith(status);
        await expect(client.postMessage(message)).resolves.toBeUndefined();
      }
    });

    it("answers UpstreamError for a non-2xx answer, naming the status but not the webhook URL", async () => {
      const client = clientAt(`${server.url}${SECRET_PATH}`);

      const failures = [];
      for (const status of [400, 403, 404, 410, 500, 503]) {
        server.respondWith(status);
        failures.push({ status, error: (await timed(client.postMessage(message))).error });
      }

      for (const { status, error } of failures) {
        expect(error).toBeInstanceOf(UpstreamError);
        expect((error as Error).message).toContain(String(status));
        expect((error as Error).message).not.toContain("secret-token");
      }
    });

    it("answers UpstreamError at once, without the webhook URL, when nothing listens there", async () => {
      const client = clientAt(`http://127.0.0.1:${await freePort()}${SECRET_PATH}`);

      const { error, elapsedMs } = await timed(client.postMessage(message));

      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as Error).message).not.toContain("secret-token");
      expect(elapsedMs).toBeLessThan(AT_ONCE_MS);
    });

    it("answers UpstreamError after timeoutMs when the webhook does not answer", async () => {
      server.respondWith("no answer");
      const client = clientAt(`${server.url}${SECRET_PATH}`);

      const { error, elapsedMs } = await timed(client.postMessage(message));

      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as Error).message).not.toContain("secret-token");
      expect(elapsedMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
      expect(elapsedMs).toBeLessThan(TIMEOUT_MS + SLACK_MS);
    });
  });
}
