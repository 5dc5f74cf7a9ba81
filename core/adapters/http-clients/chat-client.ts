/**
 * Posts chat messages to a Slack-style incoming webhook (`chat.webhookURL`) as JSON
 * `{channel, username, text, icon_emoji?}`. A non-2xx answer or no answer → UpstreamError
 * (502). The webhook URL carries a secret token, so it never appears in errors or logs.
 */
import type { ChatClient } from "../../ports.ts";
import { FeatureDisabledError, UpstreamError } from "../../upstream-error.ts";

export interface ChatClientOptions {
  webhookURL: string;
  fetch?: typeof fetch;
  /** Time limit of one post (default 5000 ms). */
  timeoutMs?: number;
}

export function createChatClient(options: ChatClientOptions): ChatClient {
  const send = options.fetch ?? fetch;
  return {
    async postMessage(message) {
      if (options.webhookURL === "") throw new FeatureDisabledError("chat.webhookURL is not configured");
      const body: Record<string, string> = {
        channel: message.channel,
        username: message.from_user,
        text: message.msg,
      };
      if (message.emoji !== undefined && message.emoji !== "") body.icon_emoji = message.emoji;
      let response: Response;
      try {
        response = await send(options.webhookURL, {
          method: "POST",
          headers: { "Content-Type": "application/json; charset=utf-8" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
        });
      } catch (error) {
        throw new UpstreamError("chat webhook", "The chat webhook did not answer", { cause: error });
      }
      await response.body?.cancel();
      if (!response.ok)
        throw new UpstreamError("chat webhook", `The chat webhook answered HTTP ${response.status}`);
    },
  };
}
