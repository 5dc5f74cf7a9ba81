/**
 * Posts alert messages (Teams, Slack) as JSON with a time limit. The URL carries the service's
 * key or token, so errors name only the host's answer, never the URL.
 */
import type { ChatWebhookClient } from "../../alerts/index.ts";

export function createChatWebhookClient(send: typeof fetch = fetch): ChatWebhookClient {
  return {
    async post(url, body, timeoutMs) {
      let response: Response;
      try {
        response = await send(url, {
          method: "POST",
          headers: { "Content-Type": "application/json; charset=utf-8" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const reason =
          error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
            ? `no answer within ${timeoutMs} ms`
            : "the connection failed";
        throw new Error(`The post failed: ${reason}`, { cause: error });
      }
      const answer = (await response.text().catch(() => "")).slice(0, 200);
      if (!response.ok) throw new Error(`The post was refused: HTTP ${response.status} ${answer}`.trim());
    },
  };
}
