/**
 * The port Teams and Slack alerts are posted through: one JSON body to a chat service's incoming
 * webhook (core/adapters/http-clients/chat-webhook-client.ts is the HTTP one). The URL carries the
 * service's token, so the client never puts it in an error. Its contract suite is
 * test/contracts/chat-webhook-client.contract.ts.
 */

export interface ChatWebhookClient {
  /** POSTs `body` as JSON; rejects on no answer within `timeoutMs` or a status outside 2xx. */
  post(url: string, body: unknown, timeoutMs: number): Promise<void>;
}
